import Dispatch
import Synchronization

/// Where answers are made again at the best compression effort, off the requests' threads: one at a time, on a
/// background queue, at most ``jobsPerSecond`` started on average (in bursts of up to ``burst``) and at most
/// ``maximumPending`` waiting. A job past either bound is refused and its answer stays at the fast effort until a
/// later use asks again, so a flood of outcomes asked for twice costs the background a small part of a core, and the
/// requests none of it.
///
/// Brotli at quality 11 took 3.1 ms for a 2.4 KB tab bar where quality 5 took 52 µs: made on the request's thread for
/// every outcome past the cache, it set what a request for a new outcome cost. Without the rate, 8,192 outcomes asked
/// for in turn kept this queue busy a whole core of two (Benchmarks/outcomes.py).
final class AnswerCompressor: Sendable {
    /// The one the service's caches share.
    static let shared = AnswerCompressor()
    /// The most jobs waiting at once.
    static let maximumPending = 64
    /// Jobs started per second, on average: about 6 % of a core at 3 ms a job.
    static let jobsPerSecond = 20.0
    /// Jobs that may start at once after a quiet time (a publish's first answers).
    static let burst = 64.0

    private let queue = DispatchQueue(label: "tabconfig.answer-compressor", qos: .utility)
    private let pending = Atomic(0)
    private let ran = Atomic(0)
    /// The jobs that may start now, and when that was worked out.
    private let budget = Mutex((tokens: AnswerCompressor.burst, at: ContinuousClock.now))

    /// Runs `job` in the background; false (and `job` never runs) when the rate or ``maximumPending`` refuses it.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let allowed = budget.withLock { budget in
            let now = ContinuousClock.now
            let (seconds, attoseconds) = (now - budget.at).components
            let elapsed = Double(seconds) + Double(attoseconds) / 1e18
            budget = (min(Self.burst, budget.tokens + elapsed * Self.jobsPerSecond), now)
            guard budget.tokens >= 1 else { return false }
            budget.tokens -= 1
            return true
        }
        guard allowed else { return false }
        guard pending.add(1, ordering: .relaxed).newValue <= Self.maximumPending else {
            pending.subtract(1, ordering: .relaxed)
            return false
        }
        queue.async { [self] in
            job()
            ran.add(1, ordering: .relaxed)
            pending.subtract(1, ordering: .relaxed)
        }
        return true
    }

    /// How many jobs have run.
    var jobsRun: Int { ran.load(ordering: .relaxed) }

    /// Waits until every job submitted before the call has run.
    func drain() {
        queue.sync {}
    }
}
