import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as the client reads it: status, the few headers it uses, and the body.
struct HTTPAnswer: Sendable {
    /// The HTTP status code.
    var status: Int
    /// `ETag`, when the service sent one.
    var etag: String?
    /// `Retry-After`, as sent.
    var retryAfter: String?
    /// The body (empty for a 304).
    var body: Data

    init(status: Int, etag: String? = nil, retryAfter: String? = nil, body: Data = Data()) {
        self.status = status
        self.etag = etag
        self.retryAfter = retryAfter
        self.body = body
    }

    init(_ response: HTTPURLResponse, body: Data) {
        self.init(
            status: response.statusCode, etag: response.value(forHTTPHeaderField: "ETag"),
            retryAfter: response.value(forHTTPHeaderField: "Retry-After"), body: body)
    }

    /// The body as a problem document, when it is one.
    var problem: Problem? {
        try? JSONDecoder().decode(Problem.self, from: body)
    }
}
