/// Exponential backoff with full jitter: the n-th retry (from 0) waits a random time between zero and
/// `min(maxDelay, baseDelay × 2ⁿ)`, so clients that failed together do not retry together.
struct Backoff: Sendable, Hashable {
    /// The cap of the first retry's wait.
    var baseDelay: Duration
    /// The cap of every wait.
    var maxDelay: Duration

    /// The cap of the wait before retry `attempt` (0 for the first retry).
    func ceiling(attempt: Int) -> Duration {
        let exponent = min(max(attempt, 0), 30)
        let grown = baseDelay * (1 << exponent)
        return grown > maxDelay || grown < .zero ? maxDelay : grown
    }

    /// A random wait before retry `attempt` (0 for the first retry), drawn from `generator`.
    func delay(attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let ceiling = ceiling(attempt: attempt)
        guard ceiling > .zero else { return .zero }
        let milliseconds = ceiling.components.seconds * 1000 + ceiling.components.attoseconds / 1_000_000_000_000_000
        return .milliseconds(Int64.random(in: 0...max(milliseconds, 0), using: &generator))
    }

    /// A random wait before retry `attempt` (0 for the first retry).
    func delay(attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(attempt: attempt, using: &generator)
    }
}
