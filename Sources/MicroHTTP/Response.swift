import Foundation

/// An HTTP response produced by a ``Responder``.
public struct Response: Sendable {
    /// The status code.
    public var status: Int
    /// The response header fields. `Content-Length` is computed by the server.
    public var headers: HTTPHeaders
    /// The body. Ignored for 204 and 304, and for streamed responses.
    public var body: Data
    /// The stream of a streamed response, else nil.
    public internal(set) var stream: ResponseStream?
    /// The pending answer of a deferred response, else nil.
    public internal(set) var deferred: DeferredResponse?

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = nil
        self.deferred = nil
    }
}
