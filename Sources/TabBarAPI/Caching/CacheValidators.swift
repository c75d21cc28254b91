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
    /// The content coding of the body these validators go with (`Content-Encoding` unless identity).
    var coding = ContentCoding.identity
    /// Whether the representation comes in several content codings (`Vary: Accept-Encoding`).
    var variesByEncoding = false

    /// These validators for the same representation in `coding`: its own strong tag (RFC 9110 §8.8.3: a tag names
    /// one sequence of bytes), `Content-Encoding`, and `Vary: Accept-Encoding`.
    func encoded(_ coding: ContentCoding) -> CacheValidators {
        var validators = self
        validators.coding = coding
        validators.variesByEncoding = true
        validators.etag = EntityTag.encoded(etag, coding)
        return validators
    }

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
        Response(status: 304, headers: headers(contentType: nil))
    }

    /// The `Content-Type` of the API's JSON answers.
    static let jsonContentType = "application/json; charset=utf-8"

    /// A `200` with the JSON `body`, its `Content-Type` and these validators' headers.
    func jsonResponse(_ body: Data) -> Response {
        response(body, contentType: Self.jsonContentType)
    }

    /// A `200` with `body` of `contentType` and these validators' headers.
    func response(_ body: Data, contentType: String) -> Response {
        Response(status: 200, headers: headers(contentType: contentType), body: body)
    }

    private func headers(contentType: String?) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(5)
        if let contentType {
            headers.add(name: "Content-Type", value: contentType)
        }
        headers.add(name: "Cache-Control", value: cacheControl)
        headers.add(name: "ETag", value: etag)
        // A 304 carries the validators and Vary, not the body's metadata (RFC 9110 §15.4.5).
        if coding != .identity, contentType != nil {
            headers.add(name: "Content-Encoding", value: coding.rawValue)
        }
        var vary: [String] = []
        if variesByEncoding { vary.append("Accept-Encoding") }
        if variesByLanguage { vary.append("Accept-Language") }
        if variesByAuthorization { vary.append("Authorization") }
        if let variesByHeader { vary.append(variesByHeader) }
        if !vary.isEmpty {
            headers.add(name: "Vary", value: vary.joined(separator: ", "))
        }
        return headers
    }
}
