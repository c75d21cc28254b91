import Foundation
import Logging
import PostgresNIO

/// The SQL of the PostgreSQL store. Dates are stored as `timestamptz` and moved as whole milliseconds (integer
/// arithmetic both ways), so that a version read back equals the one published.
extension PostgresStore {
    /// Applies the migrations and reads everything reads are served from.
    static func load(_ database: PostgresClient, logger: Logger) async throws -> PostgresCache {
        _ = try await database.withConnection { connection in
            try await PostgresMigrations.apply(on: connection, logger: logger)
        }
        var cache = PostgresCache()
        let versions = try await database.query(
            """
            SELECT client, version, (extract(epoch FROM published_at) * 1000)::bigint, note, rollback_of, document
            FROM tabconfig_versions ORDER BY client, version
            """, logger: logger)
        for try await (client, number, milliseconds, note, rollbackOf, document) in versions.decode(
            (String, Int, Int64, String?, Int?, Data).self)
        {
            let version = ConfigVersion(
                client: client, version: number, publishedAt: date(milliseconds: milliseconds), note: note,
                rollbackOf: rollbackOf, document: document)
            cache.addVersion(version, prunedThrough: 0)
        }
        let customizations = try await database.query(
            "SELECT client, user_id, revision, value::text FROM tabconfig_customizations WHERE value IS NOT NULL",
            logger: logger)
        for try await (client, user, revision, json) in customizations.decode((String, String, Int64, String).self) {
            cache.setCustomization(
                CustomizationKey(client: client, user: user),
                CustomizationEntry(revision: UInt64(revision), value: try customization(json)))
        }
        return cache
    }

    /// Publishes a version in one transaction holding the client's row: the number is one past the client's last
    /// ever, the live version is compared with `expectedVersion` under the lock, versions past `keep` are pruned.
    /// Returns the version and the number versions were pruned through.
    static func publish(
        _ database: PostgresClient, client: String, document: Data, note: String?, rollbackOf: Int?,
        expectedVersion: Int?, keep: Int, logger: Logger
    ) async throws -> (ConfigVersion, Int) {
        let milliseconds = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        return try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO tabconfig_clients (client, last_version, live_version) VALUES (\(client), 0, NULL)
                ON CONFLICT (client) DO NOTHING
                """, logger: logger)
            var state: (last: Int, live: Int?) = (0, nil)
            for try await row in try await connection.query(
                "SELECT last_version, live_version FROM tabconfig_clients WHERE client = \(client) FOR UPDATE",
                logger: logger
            ).decode((Int, Int?).self) {
                state = row
            }
            if let expectedVersion, expectedVersion != state.live ?? 0 { throw StoreError.revisionMismatch }
            let number = state.last + 1
            try await connection.query(
                """
                INSERT INTO tabconfig_versions (client, version, published_at, note, rollback_of, document)
                VALUES (\(client), \(number), 'epoch'::timestamptz + \(milliseconds) * interval '1 millisecond',
                        \(note), \(rollbackOf), \(document))
                """, logger: logger)
            try await connection.query(
                "UPDATE tabconfig_clients SET last_version = \(number), live_version = \(number) WHERE client = \(client)",
                logger: logger)
            let prunedThrough = number - keep
            try await connection.query(
                "DELETE FROM tabconfig_versions WHERE client = \(client) AND version <= \(prunedThrough)", logger: logger)
            let version = ConfigVersion(
                client: client, version: number, publishedAt: date(milliseconds: milliseconds), note: note,
                rollbackOf: rollbackOf, document: document)
            return (version, prunedThrough)
        }
    }

    /// Deletes a client's versions and customizations in one transaction holding its row. Returns whether it had a
    /// live version, the last version number it had (nil without a row), and the customizations removed with their
    /// revisions (kept: numbering continues).
    static func deleteClient(
        _ database: PostgresClient, client: String, logger: Logger
    ) async throws -> (Bool, Int?, [(String, UInt64)]) {
        try await database.withTransaction(logger: logger) { connection in
            var state: (last: Int, live: Int?)?
            for try await row in try await connection.query(
                "SELECT last_version, live_version FROM tabconfig_clients WHERE client = \(client) FOR UPDATE",
                logger: logger
            ).decode((Int, Int?).self) {
                state = row
            }
            var removed: [(String, UInt64)] = []
            for try await (user, revision) in try await connection.query(
                """
                UPDATE tabconfig_customizations SET value = NULL WHERE client = \(client) AND value IS NOT NULL
                RETURNING user_id, revision
                """, logger: logger
            ).decode((String, Int64).self) {
                removed.append((user, UInt64(revision)))
            }
            guard let state else { return (false, nil, removed) }
            try await connection.query("DELETE FROM tabconfig_versions WHERE client = \(client)", logger: logger)
            try await connection.query(
                "UPDATE tabconfig_clients SET live_version = NULL WHERE client = \(client)", logger: logger)
            return (state.live != nil, state.last, removed)
        }
    }

    /// Saves a customization in one statement, so that the comparison with `expectedRevision` and the write are
    /// atomic across replicas: the revision is one past the key's last (reset or removed ones count).
    static func save(
        _ database: PostgresClient, client: String, user: String, value: StoredCustomization, json: String,
        expectedRevision: UInt64?, logger: Logger
    ) async throws -> CustomizationEntry {
        let query: PostgresQuery
        switch expectedRevision {
        case nil:
            query = """
                INSERT INTO tabconfig_customizations AS c (client, user_id, revision, value)
                VALUES (\(client), \(user), 1, \(json)::jsonb)
                ON CONFLICT (client, user_id) DO UPDATE SET revision = c.revision + 1, value = EXCLUDED.value
                RETURNING revision
                """
        case 0:
            query = """
                INSERT INTO tabconfig_customizations AS c (client, user_id, revision, value)
                VALUES (\(client), \(user), 1, \(json)::jsonb)
                ON CONFLICT (client, user_id) DO UPDATE SET revision = c.revision + 1, value = EXCLUDED.value
                WHERE c.value IS NULL
                RETURNING revision
                """
        case let expected?:
            query = """
                UPDATE tabconfig_customizations SET revision = revision + 1, value = \(json)::jsonb
                WHERE client = \(client) AND user_id = \(user) AND revision = \(Int64(expected)) AND value IS NOT NULL
                RETURNING revision
                """
        }
        for try await revision in try await database.query(query, logger: logger).decode(Int64.self) {
            return CustomizationEntry(revision: UInt64(revision), value: value)
        }
        throw StoreError.revisionMismatch
    }

    /// Resets a customization (taking the next revision); nil when it had no value.
    static func reset(_ database: PostgresClient, client: String, user: String, logger: Logger) async throws -> UInt64? {
        for try await revision in try await database.query(
            """
            UPDATE tabconfig_customizations SET revision = revision + 1, value = NULL
            WHERE client = \(client) AND user_id = \(user) AND value IS NOT NULL
            RETURNING revision
            """, logger: logger
        ).decode(Int64.self) {
            return UInt64(revision)
        }
        return nil
    }

    /// A stored customization's JSON, read by the store's fast reader (`JSONDecoder` outside its fast path).
    static func customization(_ json: String) throws -> StoredCustomization {
        var json = json
        return try json.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            if let fast = try? RecordJSONReader.customization(raw) { return fast }
            return try JSONDecoder().decode(StoredCustomization.self, from: Data(raw))
        }
    }

    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
