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

extension Response {
    /// A response sent once `deferred` is completed; no server thread waits for it meanwhile.
    public init(deferred: DeferredResponse) {
        self.init(status: 202)
        self.deferred = deferred
    }
}

extension Response {
    /// Sends `prepared` as it is.
    public init(prepared: PreparedResponse) {
        self.init(status: prepared.status, headers: prepared.headers, body: prepared.body)
        self.prepared = prepared
    }
}

extension Response {
    /// A streamed response: sent with chunked transfer encoding (no Content-Length), body produced by `stream`.
    ///
    /// For 204 and 304 no body is sent and the stream is closed; a HEAD request gets the head of an empty body
    /// (`Content-Length: 0`), and the stream is closed.
    public init(status: Int, headers: HTTPHeaders = [:], stream: ResponseStream) {
        self.init(status: status, headers: headers)
        self.stream = stream
    }
}
