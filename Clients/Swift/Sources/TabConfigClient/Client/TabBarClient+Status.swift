import Foundation

extension TabBarClient {
    /// What the client knows of its link to the service, for the app to show or log.
    public struct Status: Sendable, Hashable {
        /// Whether the service answers.
        public var connection: Connection
        /// The event stream's state.
        public var eventStream: EventStream
        /// Whether a save waits to be stored by the service.
        public var hasPendingSave: Bool
        /// The service asked not to be called before this moment (`Retry-After` on a 429 or 503).
        public var retryAfter: Date?
        /// The last error, cleared by the next answer that is not one.
        public var lastError: TabBarClientError?

        /// A status.
        public init(
            connection: Connection = .unknown, eventStream: EventStream = .stopped, hasPendingSave: Bool = false,
            retryAfter: Date? = nil, lastError: TabBarClientError? = nil
        ) {
            self.connection = connection
            self.eventStream = eventStream
            self.hasPendingSave = hasPendingSave
            self.retryAfter = retryAfter
            self.lastError = lastError
        }

        /// Whether the service answers.
        public enum Connection: Sendable, Hashable {
            /// Nothing was asked yet.
            case unknown
            /// The last request was answered.
            case reachable
            /// The last request did not reach the service, or it answered with a server error.
            case unreachable
            /// The service refused the token (401 or 403): nothing is sent until the token provider gives another.
            case unauthorized(status: Int)
        }

        /// The event stream's state.
        public enum EventStream: Sendable, Hashable {
            /// Not followed (the app is in the background, or a token was refused).
            case stopped
            /// A connection is being made.
            case connecting
            /// Connected: a published version arrives as an event.
            case connected
            /// Waiting to reconnect (backoff, or `Retry-After`).
            case waiting
        }
    }
}
