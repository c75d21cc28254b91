#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import TabBarModel

/// Change requests in `tabconfig_changes` (each row the change as JSON, ``ChangeRequest``'s `Codable` form): read from
/// memory (``PostgresCache``), each step one transaction holding the row, with a ``ChangeNotice/Kind/changes`` notice
/// that makes every replica read the client's changes again.
extension PostgresStore {
    public func changes(client: String?) -> [ChangeRequest] {
        cache.withLock { cache in
            guard let client else { return cache.changes.values.flatMap { $0 }.sorted { $0.id < $1.id } }
            return cache.changes[client] ?? []
        }
    }

    public func openChange(_ change: ChangeRequest, audit record: AuditRecord?) throws -> ChangeRequest {
        guard Identifiers.isValidClient(change.client) else { throw StoreError.invalidClientID }
        let opened = try write { database, logger in
            try await database.transaction(logger: logger) { connection in
                var opened = change
                for try await id in try await connection.query(
                    "SELECT nextval('tabconfig_change_ids')", logger: logger
                ).decode(Int.self) {
                    opened.id = id
                }
                opened.revision = 1
                opened.state = .open
                opened.createdAt = StoredTime.rounded(Date())
                opened.updatedAt = opened.createdAt
                opened.publishAt = change.publishAt.map(StoredTime.rounded)
                try await Self.storeChange(opened, on: connection, logger: logger)
                if let record { try await Self.insertAuditChange(record, opened, on: connection, logger: logger) }
                try await Self.notify(
                    ChangeNotice(kind: .changes, origin: self.origin, client: change.client), on: connection,
                    logger: logger)
                return opened
            }
        }
        try refreshChanges(client: change.client)
        return opened
    }

    public func writeChange(
        _ change: ChangeRequest, expectedRevision: Int, audit record: AuditRecord?
    ) throws -> ChangeRequest? {
        let written = try write { database, logger in
            try await database.transaction(logger: logger) { connection in
                var stored: (client: String, revision: Int)?
                for try await row in try await connection.query(
                    "SELECT client, revision FROM tabconfig_changes WHERE id = \(change.id) FOR UPDATE", logger: logger
                ).decode((String, Int).self) {
                    stored = row
                }
                guard let stored, stored.revision == expectedRevision, stored.client == change.client else {
                    return ChangeRequest?.none
                }
                var written = change
                written.revision = expectedRevision + 1
                written.updatedAt = StoredTime.rounded(Date())
                written.publishAt = change.publishAt.map(StoredTime.rounded)
                try await Self.storeChange(written, on: connection, logger: logger)
                if let record { try await Self.insertAuditChange(record, written, on: connection, logger: logger) }
                try await Self.notify(
                    ChangeNotice(kind: .changes, origin: self.origin, client: change.client), on: connection,
                    logger: logger)
                return written
            }
        }
        if written != nil { try refreshChanges(client: change.client) }
        return written
    }

    /// Reads the client's changes into the cache.
    private func refreshChanges(client: String) throws {
        let changes = try write { database, logger in try await Self.changes(database, of: client, logger: logger) }
        cache.withLock { $0.setChanges(client: client, changes) }
    }

    /// Writes `change`'s row, new or replacing the one of its id.
    private static func storeChange(
        _ change: ChangeRequest, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let json = String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
        try await connection.query(
            """
            INSERT INTO tabconfig_changes (id, client, revision, change)
            VALUES (\(Int64(change.id)), \(change.client), \(change.revision), \(json)::jsonb)
            ON CONFLICT (id) DO UPDATE SET revision = EXCLUDED.revision, change = EXCLUDED.change
            """, logger: logger)
    }

    /// Every change of `client` (of every client when nil), read now.
    static func changes(_ database: PostgresClient, of client: String?, logger: Logger) async throws -> [ChangeRequest] {
        try await database.withWatchedConnection { connection in
            var query = PostgresQuery(unsafeSQL: "SELECT change::text FROM tabconfig_changes ORDER BY id")
            if let client {
                query = PostgresQuery(unsafeSQL: "SELECT change::text FROM tabconfig_changes WHERE client = $1 ORDER BY id")
                query.binds.append(client)
            }
            var changes: [ChangeRequest] = []
            let decoder = JSONDecoder()
            for try await json in try await connection.query(query, logger: logger).decode(String.self) {
                changes.append(try decoder.decode(ChangeRequest.self, from: Data(json.utf8)))
            }
            return changes
        }
    }
}
#endif
