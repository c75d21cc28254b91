/// When the client asks the service again: the backoff after retryable failures (full jitter, reset by the next
/// answer), the service's `Retry-After`, the retry waiting to run, and the periodic refresh while the app is active.
struct RefreshSchedule: Sendable {
    /// The waits between retries.
    let backoff: Backoff
    /// Retryable failures since the last answer: the backoff's exponent.
    private(set) var failures = 0
    /// The service asked not to be called before this (`Retry-After`).
    private(set) var notBefore: ContinuousClock.Instant?
    /// The retry waiting to run after a failure.
    var recovery: Task<Void, Never>?
    /// The periodic refresh (``TabBarClient/Configuration/refreshInterval``).
    var periodic: Task<Void, Never>?

    init(backoff: Backoff) {
        self.backoff = backoff
    }

    /// The service answered: the backoff starts over and the retry waiting is not needed.
    mutating func answered() {
        failures = 0
        cancelRecovery()
    }

    /// How long to wait before the next retry: the backoff's next wait, or `wait` (the rest of a `Retry-After`)
    /// when longer.
    mutating func nextRetryDelay(atLeast wait: Duration?) -> Duration {
        let delay = backoff.delay(attempt: failures)
        failures += 1
        guard let wait, wait > delay else { return delay }
        return wait
    }

    /// How long the service asked to wait still, or nil (once it has passed, it is forgotten).
    mutating func remainingWait(now: ContinuousClock.Instant = .now) -> Duration? {
        guard let notBefore else { return nil }
        let wait = notBefore - now
        guard wait > .zero else {
            self.notBefore = nil
            return nil
        }
        return wait
    }

    /// The service asked not to be called for `delay` from `now`; a longer wait asked before stays.
    mutating func honour(retryAfter delay: Duration, now: ContinuousClock.Instant = .now) {
        let until = now + delay
        if notBefore.map({ $0 < until }) ?? true { notBefore = until }
    }

    /// Drops the retry waiting to run.
    mutating func cancelRecovery() {
        recovery?.cancel()
        recovery = nil
    }

    /// Stops the periodic refresh.
    mutating func stopPeriodic() {
        periodic?.cancel()
        periodic = nil
    }
}
