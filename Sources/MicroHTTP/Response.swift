import Foundation

/// An HTTP response produced by a ``Responder``.
public struct Response: Sendable {
    /// The status code.
    public var status: Int {
        didSet { prepared = nil }
    }
    /// The response header fields. `Content-Length` is computed by the server.
    public var headers: HTTPHeaders {
        didSet { prepared = nil }
    }
    /// The body. Ignored for 204 and 304, and for streamed responses. (A 304 goes out with `Content-Length: 0`:
    /// libmicrohttpd 0.9.75 writes one on every 304 it keeps the connection open after, and clients such as OkHttp
    /// and wrk read the 200's length, which RFC 9110 §8.6 would allow, as a body to wait for.)
    public var body: Data {
        didSet { prepared = nil }
    }
    /// The stream of a streamed response, else nil.
    public internal(set) var stream: ResponseStream?
    /// The pending answer of a deferred response, else nil.
    public internal(set) var deferred: DeferredResponse?
    /// The response built once that this one sends, else nil; changing the status, headers or body clears it.
    public internal(set) var prepared: PreparedResponse?
    /// The pattern of the route a ``Router`` answered this from the request head with, so that the request's route
    /// (for the log and metrics) needs no second lookup; nil otherwise.
    var route: String?

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = nil
        self.deferred = nil
        self.prepared = nil
        self.route = nil
    }
}
