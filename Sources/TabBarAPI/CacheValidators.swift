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

    /// `response` with `ETag`, `Cache-Control` and, where it applies, `Vary`.
    func decorate(_ response: Response) -> Response {
        var response = response
        response.headers.replaceOrAdd(name: "ETag", value: etag)
        response.headers.replaceOrAdd(name: "Cache-Control", value: cacheControl)
        if variesByLanguage {
            response.headers.replaceOrAdd(name: "Vary", value: "Accept-Language")
        }
        return response
    }
}
