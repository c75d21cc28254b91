import Foundation
import Logging
import PostgresNIO

/// The SQL of the PostgreSQL store. Dates are stored as `timestamptz` and moved as whole milliseconds (integer
/// arithmetic both ways), so that a version read back equals the one published.
extension PostgresStore {
    /// Applies the migrations the database lacks.
    static func migrate(_ database: PostgresClient, logger: Logger) async throws {
        _ = try await database.withConnection { connection in
            try await PostgresMigrations.apply(on: connection, logger: logger)
        }
    }

    /// Reads everything reads are served from.
    static func load(_ database: PostgresClient, logger: Logger) async throws -> PostgresCache {
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

    /// One stored version; nil when it is no longer there (pruned, or its client deleted since).
    static func version(
        _ database: PostgresClient, _ client: String, _ number: Int, _ logger: Logger
    ) async throws -> ConfigVersion? {
        for try await (milliseconds, note, rollbackOf, document) in try await database.query(
            """
            SELECT (extract(epoch FROM published_at) * 1000)::bigint, note, rollback_of, document
            FROM tabconfig_versions WHERE client = \(client) AND version = \(number)
            """, logger: logger
        ).decode((Int64, String?, Int?, Data).self) {
            return ConfigVersion(
                client: client, version: number, publishedAt: date(milliseconds: milliseconds), note: note,
                rollbackOf: rollbackOf, document: document)
        }
        return nil
    }

    /// The customization rows of a client (of one user when `user` is given), reset and removed ones included.
    static func customizations(
        _ database: PostgresClient, of client: String, user: String? = nil, _ logger: Logger
    ) async throws -> [(String, CustomizationEntry)] {
        var rows: [(String, CustomizationEntry)] = []
        for try await (user, revision, json) in try await database.query(
            """
            SELECT user_id, revision, value::text FROM tabconfig_customizations
            WHERE client = \(client) AND (\(user)::text IS NULL OR user_id = \(user))
            """, logger: logger
        ).decode((String, Int64, String?).self) {
            rows.append((user, CustomizationEntry(revision: UInt64(revision), value: try json.map(customization))))
        }
        return rows
    }

    /// Publishes a version in one transaction holding the client's row: the number is one past the client's last
    /// ever, the live version is compared with `expectedVersion` under the lock, versions past `keep` are pruned.
    /// Returns the version and the number versions were pruned through.
    static func publish(
        _ database: PostgresClient, client: String, document: Data, note: String?, rollbackOf: Int?,
        expectedVersion: Int?, keep: Int, origin: String, logger: Logger
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
            let notice = ChangeNotice(
                kind: .published, origin: origin, client: client, version: number, prunedThrough: prunedThrough)
            try await notify(notice, on: connection, logger: logger)
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
        _ database: PostgresClient, client: String, origin: String, logger: Logger
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
            try await notify(
                ChangeNotice(kind: .deleted, origin: origin, client: client, version: state?.last ?? 0), on: connection,
                logger: logger)
            guard let state else { return (false, nil, removed) }
            try await connection.query("DELETE FROM tabconfig_versions WHERE client = \(client)", logger: logger)
            try await connection.query(
                "UPDATE tabconfig_clients SET live_version = NULL WHERE client = \(client)", logger: logger)
            return (state.live != nil, state.last, removed)
        }
    }

    /// Saves a customization in one statement, so that the comparison with `expectedRevision` and the write are
    /// atomic across replicas: the revision is one past the key's last (reset or removed ones count). The statement
    /// also sends its ``ChangeNotice``.
    static func save(
        _ database: PostgresClient, client: String, user: String, value: StoredCustomization, json: String,
        expectedRevision: UInt64?, origin: String, logger: Logger
    ) async throws -> CustomizationEntry {
        let write: String
        var bindings = PostgresBindings()
        bindings.append(client)
        bindings.append(user)
        bindings.append(json)
        bindings.append(origin)
        switch expectedRevision {
        case nil:
            write = """
                INSERT INTO tabconfig_customizations AS c (client, user_id, revision, value)
                VALUES ($1, $2, 1, $3::jsonb)
                ON CONFLICT (client, user_id) DO UPDATE SET revision = c.revision + 1, value = EXCLUDED.value
                RETURNING revision
                """
        case 0:
            write = """
                INSERT INTO tabconfig_customizations AS c (client, user_id, revision, value)
                VALUES ($1, $2, 1, $3::jsonb)
                ON CONFLICT (client, user_id) DO UPDATE SET revision = c.revision + 1, value = EXCLUDED.value
                WHERE c.value IS NULL
                RETURNING revision
                """
        case let expected?:
            bindings.append(Int64(expected))
            write = """
                UPDATE tabconfig_customizations SET revision = revision + 1, value = $3::jsonb
                WHERE client = $1 AND user_id = $2 AND revision = $5 AND value IS NOT NULL
                RETURNING revision
                """
        }
        let inline = json.utf8.count <= ChangeNotice.maximumInlineValue
        let query = PostgresQuery(
            unsafeSQL: """
                WITH saved AS (\(write))
                SELECT revision, pg_notify('\(ChangeNotice.channel)', json_build_object(
                    'k', 'c', 'o', $4::text, 'c', $1::text, 'u', $2::text, 'r', revision,
                    \(inline ? "'j', $3::text" : "'f', true"))::text)
                FROM saved
                """, binds: bindings)
        for try await (revision, _) in try await database.query(query, logger: logger).decode((Int64, String).self) {
            return CustomizationEntry(revision: UInt64(revision), value: value)
        }
        throw StoreError.revisionMismatch
    }

    /// Resets a customization (taking the next revision) and sends its ``ChangeNotice``; nil when it had no value.
    static func reset(
        _ database: PostgresClient, client: String, user: String, origin: String, logger: Logger
    ) async throws -> UInt64? {
        for try await (revision, _) in try await database.query(
            """
            WITH reset AS (
                UPDATE tabconfig_customizations SET revision = revision + 1, value = NULL
                WHERE client = \(client) AND user_id = \(user) AND value IS NOT NULL
                RETURNING revision
            )
            SELECT revision, pg_notify('tabconfig_changes', json_build_object(
                'k', 'c', 'o', \(origin)::text, 'c', \(client)::text, 'u', \(user)::text, 'r', revision)::text)
            FROM reset
            """, logger: logger
        ).decode((Int64, String).self) {
            return UInt64(revision)
        }
        return nil
    }

    /// Sends a notice from inside a transaction: replicas receive it when the transaction commits.
    static func notify(_ notice: ChangeNotice, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            "SELECT pg_notify(\(ChangeNotice.channel), \(notice.payload()))", logger: logger)
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
