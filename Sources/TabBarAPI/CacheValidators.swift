import Foundation
import MicroHTTP

/// The caching headers of one GET representation, and the `If-None-Match` check that can answer 304 before
/// anything is encoded.
struct CacheValidators {
    var etag: String
    var cacheControl: String
    /// Whether the representation depends on `Accept-Language`.
    var variesByLanguage: Bool

    /// A `304 Not Modified` when the request's `If-None-Match` names this representation.
    func notModified(_ request: Request) -> Response? {
        guard let header = request.headers["If-None-Match"], EntityTag.noneMatchHits(header, etag) else {
            return nil
        }
        return decorate(Response(status: 304))
    }

    /// A `200` with the JSON `body`, its `Content-Type` and these validators' headers.
    func jsonResponse(_ body: Data) -> Response {
        var headers = HTTPHeaders()
        headers.reserveCapacity(4)
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Cache-Control", value: cacheControl)
        headers.add(name: "ETag", value: etag)
        if variesByLanguage {
            headers.add(name: "Vary", value: "Accept-Language")
        }
        return Response(status: 200, headers: headers, body: body)
    }

    /// `response` with `ETag`, `Cache-Control` and, where it applies, `Vary`.
    private func decorate(_ response: Response) -> Response {
        var response = response
        response.headers.replaceOrAdd(name: "ETag", value: etag)
        response.headers.replaceOrAdd(name: "Cache-Control", value: cacheControl)
        if variesByLanguage {
            response.headers.replaceOrAdd(name: "Vary", value: "Accept-Language")
        }
        return response
    }
}
