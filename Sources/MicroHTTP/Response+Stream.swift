import Foundation

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
