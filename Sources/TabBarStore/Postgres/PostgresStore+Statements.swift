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
        for version in try await versions(database, where: "TRUE", logger: logger) {
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
        var condition = PostgresQuery(unsafeSQL: "client = $1 AND version = $2")
        condition.binds.append(client)
        condition.binds.append(number)
        return try await versions(database, where: condition, logger: logger).first
    }

    /// A client's stored versions numbered above `number`.
    static func versions(
        _ database: PostgresClient, _ client: String, after number: Int, _ logger: Logger
    ) async throws -> [ConfigVersion] {
        var condition = PostgresQuery(unsafeSQL: "client = $1 AND version > $2")
        condition.binds.append(client)
        condition.binds.append(number)
        return try await versions(database, where: condition, logger: logger)
    }

    /// The stored versions `condition` (a `WHERE` clause with its bindings) selects, by client and number.
    private static func versions(
        _ database: PostgresClient, where condition: PostgresQuery, logger: Logger
    ) async throws -> [ConfigVersion] {
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT client, version, (extract(epoch FROM published_at) * 1000)::bigint, note, rollback_of, document
                FROM tabconfig_versions WHERE \(condition.sql) ORDER BY client, version
                """, binds: condition.binds)
        var versions: [ConfigVersion] = []
        for try await (client, number, milliseconds, note, rollbackOf, document) in try await database.query(
            query, logger: logger
        ).decode((String, Int, Int64, String?, Int?, Data).self) {
            versions.append(
                ConfigVersion(
                    client: client, version: number, publishedAt: date(milliseconds: milliseconds), note: note,
                    rollbackOf: rollbackOf, document: document))
        }
        return versions
    }

    /// Inserts a version unless the database holds one by its client and number; returns whether it did.
    static func insert(_ version: ConfigVersion, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        for try await _ in try await connection.query(
            """
            INSERT INTO tabconfig_versions (client, version, published_at, note, rollback_of, document)
            VALUES (\(version.client), \(version.version),
                    'epoch'::timestamptz + \(milliseconds(version.publishedAt)) * interval '1 millisecond',
                    \(version.note), \(version.rollbackOf), \(version.document))
            ON CONFLICT (client, version) DO NOTHING
            RETURNING 1
            """, logger: logger
        ).decode(Int.self) {
            return true
        }
        return false
    }

    /// Locks a client's row for the transaction: its last version number and its live one; nil without a row.
    private static func lockClient(
        _ client: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> (last: Int, live: Int?)? {
        for try await row in try await connection.query(
            "SELECT last_version, live_version FROM tabconfig_clients WHERE client = \(client) FOR UPDATE",
            logger: logger
        ).decode((Int, Int?).self) {
            return row
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
        let publishedAt = date(milliseconds: milliseconds(Date()))
        return try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO tabconfig_clients (client, last_version, live_version) VALUES (\(client), 0, NULL)
                ON CONFLICT (client) DO NOTHING
                """, logger: logger)
            let state = try await lockClient(client, on: connection, logger: logger) ?? (0, nil)
            if let expectedVersion, expectedVersion != state.live ?? 0 { throw StoreError.revisionMismatch }
            let number = state.last + 1
            let version = ConfigVersion(
                client: client, version: number, publishedAt: publishedAt, note: note, rollbackOf: rollbackOf,
                document: document)
            // The client's row is locked and the number is past its last: nothing holds it.
            _ = try await insert(version, on: connection, logger: logger)
            try await connection.query(
                "UPDATE tabconfig_clients SET last_version = \(number), live_version = \(number) WHERE client = \(client)",
                logger: logger)
            let prunedThrough = number - keep
            try await connection.query(
                "DELETE FROM tabconfig_versions WHERE client = \(client) AND version <= \(prunedThrough)", logger: logger)
            let notice = ChangeNotice(
                kind: .published, origin: origin, client: client, version: number, prunedThrough: prunedThrough)
            try await notify(notice, on: connection, logger: logger)
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
            let state = try await lockClient(client, on: connection, logger: logger)
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
        guard let revision = try await notifying(write, bindings, value: inline ? "$3::text" : nil, database, logger)
        else {
            throw StoreError.revisionMismatch
        }
        return CustomizationEntry(revision: revision, value: value)
    }

    /// Resets a customization (taking the next revision) and sends its ``ChangeNotice``; nil when it had no value.
    static func reset(
        _ database: PostgresClient, client: String, user: String, origin: String, logger: Logger
    ) async throws -> UInt64? {
        var bindings = PostgresBindings()
        bindings.append(client)
        bindings.append(user)
        bindings.append("")  // no value: a text parameter, so that its type is known
        bindings.append(origin)
        let write = """
            UPDATE tabconfig_customizations SET revision = revision + 1, value = NULL
            WHERE client = $1 AND user_id = $2 AND value IS NOT NULL
            RETURNING revision
            """
        return try await notifying(write, bindings, value: "NULL", database, logger)
    }

    /// Runs a customization write (`write` returns the key's new revision; bindings: $1 client, $2 user, $3 the
    /// value's JSON, $4 the origin) and, in the same statement, sends its ``ChangeNotice``: with the value when
    /// `value` is the SQL of it, a reset when it is `NULL`, to be read from the row when nil. Returns the new
    /// revision; nil when `write` changed no row.
    private static func notifying(
        _ write: String, _ bindings: PostgresBindings, value: String?, _ database: PostgresClient, _ logger: Logger
    ) async throws -> UInt64? {
        let query = PostgresQuery(
            unsafeSQL: """
                WITH written AS (\(write))
                SELECT revision, pg_notify('\(ChangeNotice.channel)', json_build_object(
                    'k', 'c', 'o', $4::text, 'c', $1::text, 'u', $2::text, 'r', revision,
                    \(value.map { "'j', \($0)" } ?? "'f', true"))::text)
                FROM written
                """, binds: bindings)
        for try await (revision, _) in try await database.query(query, logger: logger).decode((Int64, String).self) {
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

    /// A date of whole milliseconds, as the store keeps it.
    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// The whole milliseconds since 1970 of a date, to the nearest: a date of whole milliseconds gives them back
    /// (its product by 1000 can fall a hair short of them).
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
