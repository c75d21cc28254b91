#if PostgreSQL
import Logging
import PostgresNIO

/// How the PostgreSQL store reaches the database: every operation on a connection ``ConnectionWatch`` watches.
extension PostgresClient {
    /// Runs `body` on a connection of the pool, holding it until `body` returns or the connection closes
    /// (``ConnectionWatch``).
    func withWatchedConnection<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        try await withConnection { connection in
            try await ConnectionWatch.shared.run(on: connection, body)
        }
    }

    /// Runs `body` in a transaction (``PostgresConnection/transaction(logger:_:)``) on a watched connection of the
    /// pool.
    func transaction<Value: Sendable>(
        logger: Logger, _ body: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        try await withWatchedConnection { connection in
            try await connection.transaction(logger: logger) { try await body($0) }
        }
    }
}
#endif
