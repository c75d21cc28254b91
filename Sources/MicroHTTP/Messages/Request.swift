import Foundation

/// A complete HTTP request as the server hands it to a ``Responder``.
public struct Request: Sendable {
    /// The method as sent ("GET", "PUT", ...).
    public var method: String
    /// The URL path, already percent-decoded, without the query.
    public var path: String
    /// The decoded query arguments, in order.
    public var queryItems: [(name: String, value: String)]
    /// The request header fields.
    public var headers: HTTPHeaders
    /// The complete request body; empty if none.
    public var body: Data
    /// Values captured by ``Router`` from `{name}` pattern segments.
    public var pathParameters: PathParameters
    /// The client's IP address as text, if known.
    public var remoteAddress: String?
    /// The request's id: the client's well-formed `X-Request-Id`, else one the server made; echoed in the
    /// response's `X-Request-Id`.
    public var requestID = ""

    /// Creates a request.
    public init(
        method: String,
        path: String,
        queryItems: [(name: String, value: String)] = [],
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        remoteAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.pathParameters = PathParameters()
        self.remoteAddress = remoteAddress
    }

    /// The first value of the query argument `name`.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}
