import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the client's requests through one URLSession that never answers from a cache of its own: the client keeps
/// the last answer itself and revalidates it with `If-None-Match`. (With a `max-age` in the answer, URLSession's
/// cache would otherwise answer without asking, and turn the service's 304 into the 200 it cached.)
///
/// After ``invalidate()`` a request fails with `URLError(.cancelled)`: FoundationNetworking traps ("Session
/// invalidated") when a task is made on an invalidated session, so tasks are made under the same lock that
/// invalidating takes.
struct HTTPTransport: Sendable {
    private let session: Locked<URLSession?>

    /// A transport whose requests time out after `timeout` without a byte.
    init(timeout: Duration) {
        session = Locked(URLSession(configuration: Self.sessionConfiguration(timeout: timeout)))
    }

    /// An ephemeral configuration without URL cache, cookies or credentials storage.
    static func sessionConfiguration(timeout: Duration) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        configuration.timeoutIntervalForRequest = timeout.timeInterval
        return configuration
    }

    /// Sends `request` and reads the whole answer; cancelling the calling task cancels the request.
    func send(_ request: URLRequest) async throws -> HTTPAnswer {
        var request = request
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let started = Locked<URLSessionDataTask?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let made = session.withLock { session in
                    session?.dataTask(with: request) { data, response, error in
                        if let error {
                            continuation.resume(throwing: error)
                        } else if let response = response as? HTTPURLResponse {
                            continuation.resume(returning: HTTPAnswer(response, body: data ?? Data()))
                        } else {
                            continuation.resume(throwing: URLError(.badServerResponse))
                        }
                    }
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

    /// Cancels what is in flight and releases the session; later requests fail at once.
    func invalidate() {
        let ending = session.withLock { session in
            defer { session = nil }
            return session
        }
        ending?.invalidateAndCancel()
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
