extension TabBarClient {
    /// How failed requests are retried: exponential backoff with full jitter (each wait a random time up to
    /// `min(maxDelay, baseDelay × 2ⁿ)`), never earlier than a `Retry-After` asks; and how often a save is made again
    /// on a newer order before the client gives up for the time being.
    public struct RetryPolicy: Sendable, Hashable {
        /// The cap of the first retry's wait.
        public var baseDelay: Duration
        /// The cap of every wait.
        public var maxDelay: Duration
        /// Attempts of one save (each a conflict with another device's save, made again on the newer order) before
        /// the save waits for the next occasion (foreground, launch, event stream, backoff timer).
        public var maxSaveAttempts: Int

        /// A policy; the defaults wait up to 1 s, 2 s, 4 s, … 5 minutes, and try a save 5 times.
        public init(baseDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(300), maxSaveAttempts: Int = 5) {
            self.baseDelay = baseDelay
            self.maxDelay = maxDelay
            self.maxSaveAttempts = max(1, maxSaveAttempts)
        }

        /// The backoff of these delays.
        var backoff: Backoff { Backoff(baseDelay: baseDelay, maxDelay: maxDelay) }
    }
}
