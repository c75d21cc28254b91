#if PostgreSQL
import Logging
import PostgresNIO

/// The store's transactions, instead of postgres-nio's `withTransaction`, which sends `ROLLBACK` after any error, also
/// on a connection that has closed (a query on a closed connection can wait for good: ``ConnectionWatch``), and
/// wraps the error, where the store's callers need the ``StoreError`` its body threw.
extension PostgresConnection {
    /// Runs `body` between `BEGIN` and `COMMIT`; returns once `COMMIT` succeeded, that is once the transaction is
    /// durable. When `body` throws, the transaction is rolled back (unless the connection has closed, which ends it)
    /// and its error rethrown.
    func transaction<Value: Sendable>(
        logger: Logger, _ body: (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        try await query("BEGIN", logger: logger)
        let value: Value
        do {
            value = try await body(self)
        } catch {
            if !isClosed {
                do {
                    try await query("ROLLBACK", logger: logger)
                } catch let rollback {
                    logger.debug("PostgreSQL store: ROLLBACK failed: \(rollback)")
                }
            }
            throw error
        }
        try await query("COMMIT", logger: logger)
        return value
    }
}
#endif
