import Dispatch
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
    /// cannot be reached: postgres-nio's pool would otherwise keep the request waiting for a connection).
    static func bounded<Value: Sendable>(
        by timeout: Duration, _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw StoreError.unavailable
            }
            defer { group.cancelAll() }
            // The first task to finish decides; the other is cancelled.
            return try await group.next()!
        }
    }
}
