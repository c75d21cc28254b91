import Foundation

/// An HTTP response produced by a ``Responder``.
public struct Response: Sendable {
    /// The status code.
    public var status: Int
    /// The response header fields. `Content-Length` is computed by the server.
    public var headers: HTTPHeaders
    /// The body. Ignored for 204 and 304.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
