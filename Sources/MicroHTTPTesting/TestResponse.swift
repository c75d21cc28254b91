import Foundation
import MicroHTTP

/// A response read by ``TestClient``.
public struct TestResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The response header fields, in the order received.
    public var headers: HTTPHeaders
    /// The body, de-chunked.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders, body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body decoded as UTF-8.
    public var text: String {
        String(decoding: body, as: UTF8.self)
    }

    /// The body parsed with `JSONSerialization` (fragments allowed).
    public func json() throws -> Any {
        try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
    }
}
