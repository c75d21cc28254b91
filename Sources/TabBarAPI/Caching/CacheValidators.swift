import Foundation
import MicroHTTP

/// The caching headers of one GET representation, and the `If-None-Match` check that can answer 304 before
/// anything is encoded.
struct CacheValidators {
    var etag: String
    var cacheControl: String
    /// Whether the representation depends on `Accept-Language`.
    var variesByLanguage: Bool
    /// Whether the representation depends on `Authorization` (a `/users/me/…` answer: whose it is depends on the
    /// token), so that a cache on a device shared by two users never answers one with the other's copy.
    var variesByAuthorization = false
    /// The trusted country header, when the representation depends on it.
    var variesByHeader: String?

    /// A `304 Not Modified` when the request's `If-None-Match` names this representation.
    func notModified(_ request: Request) -> Response? {
        notModified(ifNoneMatch: request.headers["If-None-Match"])
    }

    /// The same for an `If-None-Match` value read from the request head.
    func notModified(ifNoneMatch header: String?) -> Response? {
        matches(ifNoneMatch: header) ? notModified : nil
    }

    /// Whether the `If-None-Match` value `header` names this representation.
    func matches(ifNoneMatch header: String?) -> Bool {
        guard let header else { return false }
        return EntityTag.noneMatchHits(header, etag)
    }

    /// The `304` of this representation: its validators, no body.
    var notModified: Response {
        Response(status: 304, headers: headers(contentType: false))
    }

    /// A `200` with the JSON `body`, its `Content-Type` and these validators' headers.
    func jsonResponse(_ body: Data) -> Response {
        Response(status: 200, headers: headers(contentType: true), body: body)
    }

    private func headers(contentType: Bool) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(4)
        if contentType {
            headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        }
        headers.add(name: "Cache-Control", value: cacheControl)
        headers.add(name: "ETag", value: etag)
        var vary: [String] = []
        if variesByLanguage { vary.append("Accept-Language") }
        if variesByAuthorization { vary.append("Authorization") }
        if let variesByHeader { vary.append(variesByHeader) }
        if !vary.isEmpty {
            headers.add(name: "Vary", value: vary.joined(separator: ", "))
        }
        return headers
    }
}
