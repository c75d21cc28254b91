import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client's event-stream requests, each read as its bytes arrive through URLSession's data delegate: that works on
/// Apple platforms and on Linux's FoundationNetworking alike (whose URLSession has no `bytes(for:)`).
///
/// Every client's streams go through one session of the process, never invalidated (see ``HTTPTransport``: session
/// teardown crashed FoundationNetworking now and then, here first with a session per connection invalidated as the
/// connection failed). Ending a stream's iteration cancels its request; ``invalidate()`` cancels the client's
/// requests, and later streams fail at once.
final class EventStreamSession: Sendable {
    /// What a connection delivers.
    enum Chunk: Sendable {
        /// The response's status and `Retry-After`.
        case head(status: Int, retryAfter: String?)
        /// The next bytes of the body.
        case bytes(Data)
    }

    /// This client's connections, by task identifier; nil once invalidated.
    private let tasks = Locked<[Int: URLSessionDataTask]?>([:])
    private let idleTimeout: Duration

    /// Streams whose requests fail after `idleTimeout` without a byte (the service's heartbeats keep a healthy
    /// stream busier than that).
    init(idleTimeout: Duration) {
        self.idleTimeout = idleTimeout
    }

    /// Opens `request`. The stream yields the response's head first, then the body in chunks as they come; it ends
    /// when the service ends the response and throws when the connection fails. Ending the iteration cancels the
    /// request.
    func open(_ request: URLRequest) -> AsyncThrowingStream<Chunk, any Error> {
        AsyncThrowingStream { continuation in
            var request = request
            request.cachePolicy = .reloadIgnoringLocalCacheData
            request.timeoutInterval = idleTimeout.timeInterval
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            let made = tasks.withLock { tasks -> URLSessionDataTask? in
                guard tasks != nil else { return nil }
                let task = Self.session.dataTask(with: request)
                Self.router.deliver(task, to: continuation)
                tasks?[task.taskIdentifier] = task
                return task
            }
            guard let task = made else {
                continuation.finish(throwing: URLError(.cancelled))
                return
            }
            let tasks = tasks
            continuation.onTermination = { _ in
                task.cancel()
                tasks.withLock { _ = $0?.removeValue(forKey: task.taskIdentifier) }
            }
            task.resume()
        }
    }

    /// Cancels every connection of the client; later streams fail at once.
    func invalidate() {
        let open = tasks.withLock { tasks in
            defer { tasks = nil }
            return tasks.map { Array($0.values) } ?? []
        }
        open.forEach { $0.cancel() }
    }

    /// The delegate of every stream's session.
    private static let router = EventStreamRouter()

    /// The session every client's streams go through: no cache, and no limit on a stream's life.
    private static let session: URLSession = {
        let configuration = HTTPTransport.sessionConfiguration()
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        return URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }()
}

/// Hands each event-stream request's head, bytes and end to the stream that opened it.
private final class EventStreamRouter: NSObject, URLSessionDataDelegate, Sendable {
    private let streams = Locked<[Int: AsyncThrowingStream<EventStreamSession.Chunk, any Error>.Continuation]>([:])

    /// Sends what `task` receives to `continuation`, from now until the task completes.
    func deliver(
        _ task: URLSessionTask, to continuation: AsyncThrowingStream<EventStreamSession.Chunk, any Error>.Continuation
    ) {
        streams.withLock { $0[task.taskIdentifier] = continuation }
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

    private func stream(of task: URLSessionTask) -> AsyncThrowingStream<EventStreamSession.Chunk, any Error>.Continuation? {
        streams.withLock { $0[task.taskIdentifier] }
    }
}
