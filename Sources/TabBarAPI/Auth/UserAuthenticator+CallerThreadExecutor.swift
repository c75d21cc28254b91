import Dispatch
import Synchronization

extension UserAuthenticator {
    /// Runs async work to completion on the thread that waits for it.
    ///
    /// jwt-kit hands out its keys only through actors, while `UserAuthenticator.init` is synchronous and may be
    /// called on a Swift concurrency thread. Blocking such a thread on a semaphore while the work waits for a free
    /// one can deadlock a small cooperative pool; here the work prefers this executor (which default actors follow
    /// too) and the waiting thread runs its jobs itself.
    final class CallerThreadExecutor: TaskExecutor {
        private let jobs = Mutex<[UnownedJob]>([])
        private let wakeUp = DispatchSemaphore(value: 0)

        private init() {}

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            jobs.withLock { $0.append(job) }
            wakeUp.signal()
        }

        /// The value of `operation`, run on the calling thread; rethrows its error.
        static func run<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) throws -> Value {
            let executor = CallerThreadExecutor()
            let outcome = Outcome<Value>()
            Task(executorPreference: executor) {
                let result: Result<Value, any Error>
                do {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                outcome.result.withLock { $0 = result }
                executor.wakeUp.signal()
            }
            while true {
                executor.wakeUp.wait()
                if let job = executor.jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                    job.runSynchronously(on: executor.asUnownedTaskExecutor())
                }
                if let result = outcome.result.withLock({ $0 }) {
                    return try result.get()
                }
            }
        }
    }

    /// Where the task started by `CallerThreadExecutor.run` leaves its result.
    private final class Outcome<Value: Sendable>: Sendable {
        let result = Mutex<Result<Value, any Error>?>(nil)
    }
}
