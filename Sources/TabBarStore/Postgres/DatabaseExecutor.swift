import Dispatch

/// The executor the PostgreSQL store's tasks run on: a concurrent dispatch queue, whose threads are neither
/// libmicrohttpd's workers nor Swift's cooperative pool. The synchronous store API waits for a task from the caller's
/// thread (``DatabaseTask/wait(_:)``); were the task to need a cooperative thread while every one of them waits like
/// this (two on a two-core machine), nothing would run it. Dispatch adds threads to this queue instead.
final class DatabaseExecutor: TaskExecutor {
    /// The one executor of the process.
    static let shared = DatabaseExecutor()

    private let queue = DispatchQueue(label: "tabconfig.postgres", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async {
            job.runSynchronously(on: executor)
        }
    }
}
