import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client's event-stream requests, each read as its bytes arrive through URLSession's data delegate: that works on
/// Apple platforms and on Linux's FoundationNetworking alike (whose URLSession has no `bytes(for:)`).
///
/// One session serves every connection of the client's life. Ending a stream's iteration cancels its task, never
/// the session, which only ``invalidate()`` ends, once, when the client shuts down: a session of its own per
/// connection, invalidated from the stream's termination while FoundationNetworking tore the failed connection down,
/// crashed the process now and then (SIGILL in `URLSession.invalidateAndCancel()`).
final class EventStreamSession: NSObject, URLSessionDataDelegate, Sendable {
    /// What a connection delivers.
    enum Chunk: Sendable {
        /// The response's status and `Retry-After`.
        case head(status: Int, retryAfter: String?)
        /// The next bytes of the body.
        case bytes(Data)
    }

    private let streams = Locked<[Int: AsyncThrowingStream<Chunk, any Error>.Continuation]>([:])
    /// Nil once invalidated. Tasks are made while holding it: FoundationNetworking traps when a task is made on an
    /// invalidated session.
    private let session = Locked<URLSession?>(nil)

    /// A session whose requests fail after `idleTimeout` without a byte (the service's heartbeats keep a healthy
    /// stream busier than that).
    init(idleTimeout: Duration) {
        super.init()
        let configuration = HTTPTransport.sessionConfiguration(timeout: idleTimeout)
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        let made = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        session.withLock { $0 = made }
    }

    /// Opens `request`. The stream yields the response's head first, then the body in chunks as they come; it ends
    /// when the service ends the response and throws when the connection fails. Ending the iteration cancels the
    /// request.
    func open(_ request: URLRequest) -> AsyncThrowingStream<Chunk, any Error> {
        AsyncThrowingStream { continuation in
            var request = request
            request.cachePolicy = .reloadIgnoringLocalCacheData
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            guard let task = session.withLock({ $0?.dataTask(with: request) }) else {
                continuation.finish(throwing: URLError(.cancelled))
                return
            }
            streams.withLock { $0[task.taskIdentifier] = continuation }
            continuation.onTermination = { _ in task.cancel() }
            task.resume()
        }
    }

    /// Cancels every connection and ends the session; later streams fail at once.
    func invalidate() {
        let ending = session.withLock { session in
            defer { session = nil }
            return session
        }
        ending?.invalidateAndCancel()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        stream(of: dataTask)?.yield(
            .head(status: http?.statusCode ?? 0, retryAfter: http?.value(forHTTPHeaderField: "Retry-After")))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        stream(of: dataTask)?.yield(.bytes(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let continuation = streams.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        if let error {
            continuation?.finish(throwing: error)
        } else {
            continuation?.finish()
        }
    }

    private func stream(of task: URLSessionTask) -> AsyncThrowingStream<Chunk, any Error>.Continuation? {
        streams.withLock { $0[task.taskIdentifier] }
    }
}
