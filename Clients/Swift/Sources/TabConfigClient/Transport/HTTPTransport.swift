import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the client's requests through a URLSession that never answers from a cache of its own: the client keeps
/// the last answer itself and revalidates it with `If-None-Match`. (With a `max-age` in the answer, URLSession's
/// cache would otherwise answer without asking, and turn the service's 304 into the 200 it cached.)
///
/// Every transport of the process shares one session, never invalidated: on Linux, FoundationNetworking's session
/// teardown races libdispatch's socket sources and crashed a test process now and then
/// (`_dispatch_event_loop_drain` while a client shut down; swift-corelibs-foundation#4791 is that family). A
/// transport's own requests are cancelled by ``invalidate()``, after which a request fails with
/// `URLError(.cancelled)`.
struct HTTPTransport: Sendable {
    /// The requests in flight, by task identifier; nil once invalidated.
    private let inFlight = Locked<[Int: URLSessionDataTask]?>([:])
    private let timeout: Duration

    /// A transport whose requests time out after `timeout` without a byte.
    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// The session every transport sends through.
    private static let session = URLSession(configuration: sessionConfiguration())

    /// An ephemeral configuration without URL cache, cookies or credentials storage; each request sets its own
    /// timeout.
    static func sessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        return configuration
    }

    /// Sends `request` and reads the whole answer; cancelling the calling task cancels the request.
    func send(_ request: URLRequest) async throws -> HTTPAnswer {
        var request = request
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = timeout.timeInterval
        let started = Locked<URLSessionDataTask?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let made = inFlight.withLock { tasks -> URLSessionDataTask? in
                    guard tasks != nil else { return nil }
                    let task = Self.session.dataTask(with: request) { data, response, error in
                        if let finished = started.withLock({ $0 }) { ended(finished) }
                        if let error {
                            continuation.resume(throwing: error)
                        } else if let response = response as? HTTPURLResponse {
                            continuation.resume(returning: HTTPAnswer(response, body: data ?? Data()))
                        } else {
                            continuation.resume(throwing: URLError(.badServerResponse))
                        }
                    }
                    tasks?[task.taskIdentifier] = task
                    return task
                }
                guard let task = made else {
                    continuation.resume(throwing: URLError(.cancelled))
                    return
                }
                started.withLock { $0 = task }
                task.resume()
                if Task.isCancelled { task.cancel() }
            }
        } onCancel: {
            started.withLock { $0 }?.cancel()
        }
    }

    /// Forgets a request that ended.
    private func ended(_ task: URLSessionDataTask) {
        inFlight.withLock { _ = $0?.removeValue(forKey: task.taskIdentifier) }
    }

    /// Cancels what is in flight; later requests fail at once.
    func invalidate() {
        let tasks = inFlight.withLock { tasks in
            defer { tasks = nil }
            return tasks.map { Array($0.values) } ?? []
        }
        tasks.forEach { $0.cancel() }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's APIs take it.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    /// `interval` seconds (negative ones as zero).
    static func interval(_ interval: TimeInterval) -> Duration {
        .milliseconds(Int64((max(0, interval) * 1000).rounded(.up)))
    }
}
