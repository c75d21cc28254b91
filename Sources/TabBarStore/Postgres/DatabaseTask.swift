import Dispatch
import Logging
import Synchronization

/// Runs the PostgreSQL store's async work on ``DatabaseExecutor`` for callers that are not async.
enum DatabaseTask {
    /// Runs `body` and blocks the calling thread until it has finished: for the synchronous ``TabBarStore`` methods.
    static func wait<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: DatabaseExecutor.shared) {
            let result: Result<Value, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        // The task stored its result before signalling.
        return try outcome.withLock { $0! }.get()
    }

    /// Runs `body` and hands its result to `completion`, from the executor's thread, without blocking the caller.
    static func start<Value: Sendable>(
        _ body: @escaping @Sendable () async throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        Task(executorPreference: DatabaseExecutor.shared) {
            do {
                completion(.success(try await body()))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Runs `body`, failing with ``StoreError/unavailable`` when it has not finished within `timeout` (the database
    /// cannot be reached: postgres-nio's pool would otherwise keep the request waiting for a connection). Returns at
    /// the timeout even when `body` does not: a postgres-nio query written to a connection that has just closed never
    /// completes, and ignores cancellation. Such a `body` is cancelled, logged and left behind.
    static func bounded<Value: Sendable>(
        by timeout: Duration, logger: Logger, _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let pending = FirstResume(continuation)
            let work = Task(executorPreference: DatabaseExecutor.shared) {
                let result: Result<Value, any Error>
                do {
                    result = .success(try await body())
                } catch {
                    result = .failure(error)
                }
                pending.resume(with: result)
            }
            let timer = DispatchWorkItem {
                guard pending.resume(with: .failure(StoreError.unavailable)) else { return }
                work.cancel()
                logger.warning("PostgreSQL store: an operation had not finished after \(timeout); answered unavailable")
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout / .seconds(1), execute: timer)
            Task(executorPreference: DatabaseExecutor.shared) {
                _ = await work.result
                timer.cancel()
            }
        }
    }
}
