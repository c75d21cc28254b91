import Foundation

/// Why a request of ``TabBarClient`` failed.
public enum TabBarClientError: Error, Sendable, Hashable {
    /// The request did not reach the service, or its answer did not arrive (offline, timed out, refused).
    case network(String)
    /// The service refused the token (401 or 403); no request is sent until the token provider gives another one.
    case unauthorized(status: Int, problem: Problem?)
    /// The token provider threw.
    case tokenUnavailable(String)
    /// The service is overloaded or unavailable (429, 503); it asked not to be called before `retryAfter`.
    case unavailable(status: Int, retryAfter: Date?)
    /// Not sent: the service asked not to be called before this moment.
    case retryLater(until: Date)
    /// The service failed (a 5xx other than 503).
    case server(status: Int, problem: Problem?)
    /// The service refused the request as it is (400, 404, 409, 422, …). A refused save is dropped.
    case rejected(Problem)
    /// The answer is not what the API promises.
    case invalidAnswer(String)
    /// A save kept meeting newer saves of other devices; it stays pending and is tried again later.
    case conflict(attempts: Int)
    /// Saving needs a user (``TabBarClient/Configuration/user``).
    case noUser
    /// The storage directory could not be written.
    case storage(String)
    /// The client was shut down.
    case stopped

    /// Whether trying the same again later may succeed, so the client retries it by itself.
    public var isRetryable: Bool {
        switch self {
        case .network, .unavailable, .retryLater, .server, .conflict, .tokenUnavailable: true
        case .unauthorized, .rejected, .invalidAnswer, .noUser, .storage, .stopped: false
        }
    }
}
