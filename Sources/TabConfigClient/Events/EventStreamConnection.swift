import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request to an event stream, read as its bytes arrive through URLSession's data delegate: that works on Apple
/// platforms and on Linux's FoundationNetworking alike (whose URLSession has no `bytes(for:)`).
///
/// The stream it returns yields the response's head first, then the body in chunks as they come; it ends when the
/// service ends the response and throws when the connection fails. Ending the iteration cancels the request.
final class EventStreamConnection: NSObject, URLSessionDataDelegate, Sendable {
    /// What the connection delivers.
    enum Chunk: Sendable {
        /// The response's status and `Retry-After`.
        case head(status: Int, retryAfter: String?)
        /// The next bytes of the body.
        case bytes(Data)
    }

    private let continuation: AsyncThrowingStream<Chunk, any Error>.Continuation

    private init(continuation: AsyncThrowingStream<Chunk, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// Opens `request` on a session of its own, whose requests fail after `idleTimeout` without a byte (the
    /// service's heartbeats keep a healthy stream busier than that).
    static func open(_ request: URLRequest, idleTimeout: Duration) -> AsyncThrowingStream<Chunk, any Error> {
        AsyncThrowingStream { continuation in
            let delegate = EventStreamConnection(continuation: continuation)
            let configuration = HTTPTransport.sessionConfiguration(timeout: idleTimeout)
            configuration.timeoutIntervalForResource = 7 * 24 * 3600
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            var request = request
            request.cachePolicy = .reloadIgnoringLocalCacheData
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            let task = session.dataTask(with: request)
            continuation.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            task.resume()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        continuation.yield(
            .head(status: http?.statusCode ?? 0, retryAfter: http?.value(forHTTPHeaderField: "Retry-After")))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.bytes(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            continuation.finish(throwing: error)
        } else {
            continuation.finish()
        }
    }
}
