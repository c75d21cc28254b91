#if PostgreSQL
import PostgresNIO
import Synchronization

/// Ends the work running on a connection as soon as that connection closes.
///
/// In postgres-nio 1.33 a query whose connection the server closes does not always fail: in the project's test
/// (`ConnectionWatchTests`), about one query in eight whose backend was terminated waited for good, its connection
/// already closed (the fix, vapor/postgres-nio#487, was reverted in #501). A store waiting on such a query would keep
/// its lease on the pool's connection, and a batch of saves would keep every later save waiting. Work run here
/// fails with ``Closed`` when its connection closes instead; the stuck query is left behind, the lease returned.
///
/// One close callback per connection (not per operation: a connection serves many), registered the first time work
/// runs on it; the callback fails whatever still runs and forgets the connection.
final class ConnectionWatch: Sendable {
    /// The connection closed before the work finished.
    struct Closed: Error, CustomStringConvertible {
        var description: String { "the database connection closed" }
    }

    /// The one watch of the process.
    static let shared = ConnectionWatch()

    private struct State {
        var nextOperation: UInt64 = 0
        /// Per connection watched (by identity: connection ids repeat across pools): how to fail each operation
        /// running on it.
        var running: [ObjectIdentifier: [UInt64: @Sendable () -> Void]] = [:]
    }

    private let state = Mutex(State())

    /// Runs `body` on `connection` and returns what it returns, or throws ``Closed`` once the connection closes.
    func run<Value: Sendable>(
        on connection: PostgresConnection, _ body: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = FirstResume(continuation)
            let watched = ObjectIdentifier(connection)
            let (operation, firstOnConnection) = state.withLock { state in
                state.nextOperation += 1
                let firstOnConnection = state.running[watched] == nil
                state.running[watched, default: [:]][state.nextOperation] = {
                    outcome.resume(with: .failure(Closed()))
                }
                return (state.nextOperation, firstOnConnection)
            }
            if firstOnConnection {
                // Runs at once when the connection has closed already.
                // The callback holds the connection, so that no other takes its identity before it is forgotten.
                connection.closeFuture.whenComplete { [connection] _ in
                    withExtendedLifetime(connection) { self.closed(watched) }
                }
            }
            Task(executorPreference: DatabaseExecutor.shared) {
                let result: Result<Value, any Error>
                do {
                    result = .success(try await body(connection))
                } catch {
                    result = .failure(error)
                }
                self.state.withLock { _ = $0.running[watched]?.removeValue(forKey: operation) }
                outcome.resume(with: result)
            }
        }
    }

    /// Fails the operations still running on a connection that closed, and forgets it.
    private func closed(_ connection: ObjectIdentifier) {
        let failures = state.withLock { $0.running.removeValue(forKey: connection) } ?? [:]
        failures.values.forEach { $0() }
    }
}
#endif
