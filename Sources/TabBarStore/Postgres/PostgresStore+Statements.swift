#if PostgreSQL
import Foundation
import Logging
import PostgresNIO

/// The SQL of the PostgreSQL store. Dates are stored as `timestamptz` and moved as whole milliseconds (integer
/// arithmetic both ways), so that a version read back equals the one published.
extension PostgresStore {
    /// Applies the migrations the database lacks.
    static func migrate(_ database: PostgresClient, logger: Logger) async throws {
        _ = try await database.withWatchedConnection { connection in
            try await PostgresMigrations.apply(on: connection, logger: logger)
        }
    }

    /// Reads everything reads are served from.
    static func load(_ database: PostgresClient, logger: Logger) async throws -> PostgresCache {
        var cache = PostgresCache()
        for version in try await versions(database, where: "TRUE", logger: logger) {
            cache.addVersion(version, prunedThrough: 0)
        }
        for build in try await builds(database, logger: logger) {
            cache.setBuild(build)
        }
        for (client, states) in Dictionary(grouping: try await rolloutStates(database, of: nil, logger: logger), by: \.client) {
            cache.setRollouts(client: client, states)
        }
        for (client, changes) in Dictionary(grouping: try await changes(database, of: nil, logger: logger), by: \.client) {
            cache.setChanges(client: client, changes)
        }
        return try await database.withWatchedConnection { [cache] connection in
            var loaded = cache
            let customizations = try await connection.query(
                "SELECT client, user_id, revision, value::text FROM tabconfig_customizations WHERE value IS NOT NULL",
                logger: logger)
            for try await (client, user, revision, json) in customizations.decode((String, String, Int64, String).self) {
                loaded.setCustomization(
                    CustomizationKey(client: client, user: user),
                    CustomizationEntry(revision: UInt64(revision), value: try customization(json)))
            }
            return loaded
        }
    }

    /// One stored version; nil when it is no longer there (pruned, or its client deleted since).
    static func version(
        _ database: PostgresClient, _ client: String, _ number: Int, _ logger: Logger
    ) async throws -> ConfigVersion? {
        try await versions(database, where: versionCondition(client, number), logger: logger).first
    }

    /// The `WHERE` clause of one version.
    static func versionCondition(_ client: String, _ number: Int) -> PostgresQuery {
        var condition = PostgresQuery(unsafeSQL: "client = $1 AND version = $2")
        condition.binds.append(client)
        condition.binds.append(number)
        return condition
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
        try await database.withWatchedConnection { connection in
            try await versions(on: connection, where: condition, logger: logger)
        }
    }

    /// The stored versions `condition` selects, read on `connection` (in its transaction, if any).
    static func versions(
        on connection: PostgresConnection, where condition: PostgresQuery, logger: Logger
    ) async throws -> [ConfigVersion] {
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT client, version, (extract(epoch FROM published_at) * 1000)::bigint, note, rollback_of, document
                FROM tabconfig_versions WHERE \(condition.sql) ORDER BY client, version
                """, binds: condition.binds)
        var versions: [ConfigVersion] = []
        for try await (client, number, milliseconds, note, rollbackOf, document) in try await connection.query(
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
        try await database.withWatchedConnection { connection in
            var rows: [(String, CustomizationEntry)] = []
            for try await (user, revision, json) in try await connection.query(
                """
                SELECT user_id, revision, value::text FROM tabconfig_customizations
                WHERE client = \(client) AND (\(user)::text IS NULL OR user_id = \(user))
                """, logger: logger
            ).decode((String, Int64, String?).self) {
                rows.append((user, CustomizationEntry(revision: UInt64(revision), value: try json.map(customization))))
            }
            return rows
        }
    }

    /// Publishes a version in one transaction holding the client's row: the number is one past the client's last
    /// ever, the live version is compared with `expectedVersion` under the lock, the audit entry of `audit` (if any)
    /// is inserted, versions past `keep` are pruned. `cached` gives a version the store holds in memory. Returns the
    /// version and the number versions were pruned through.
    static func publish(
        _ database: PostgresClient, client: String, document: Data, note: String?, rollbackOf: Int?,
        expectedVersion: Int?, audit: AuditRecord?, keep: Int, origin: String,
        cached: @escaping @Sendable (Int) -> ConfigVersion?, logger: Logger
    ) async throws -> (ConfigVersion, Int) {
        try await database.transaction(logger: logger) { connection in
            try await publish(
                on: connection, client: client, document: document, note: note, rollbackOf: rollbackOf,
                expectedVersion: expectedVersion, audit: audit, keep: keep, origin: origin, cached: cached,
                logger: logger)
        }
    }

    /// Publishes the first version of `client` in one transaction if the database has never held a client (no row
    /// in `tabconfig_clients`, which a deleted client keeps, and no audit entry); nil, writing nothing, otherwise.
    /// The transaction locks `tabconfig_clients` against every other writer first (SHARE ROW EXCLUSIVE conflicts
    /// with itself and with the row writes of publishes and deletes), so of processes seeding together one writes,
    /// and none writes once another process has published. Returns what `publish` returns.
    static func seed(
        _ database: PostgresClient, client: String, document: Data, note: String?, audit: AuditRecord?, keep: Int,
        origin: String, cached: @escaping @Sendable (Int) -> ConfigVersion?, logger: Logger
    ) async throws -> (ConfigVersion, Int)? {
        try await database.transaction(logger: logger) { connection in
            try await connection.query("LOCK TABLE tabconfig_clients IN SHARE ROW EXCLUSIVE MODE", logger: logger)
            for try await held in try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM tabconfig_clients) OR EXISTS (SELECT 1 FROM tabconfig_audit)
                """, logger: logger
            ).decode(Bool.self) where held {
                return nil
            }
            return try await publish(
                on: connection, client: client, document: document, note: note, rollbackOf: nil, expectedVersion: 0,
                audit: audit, keep: keep, origin: origin, cached: cached, logger: logger)
        }
    }

    /// `publish`'s statements, in the transaction open on `connection`.
    private static func publish(
        on connection: PostgresConnection, client: String, document: Data, note: String?, rollbackOf: Int?,
        expectedVersion: Int?, audit: AuditRecord?, keep: Int, origin: String,
        cached: @escaping @Sendable (Int) -> ConfigVersion?, logger: Logger
    ) async throws -> (ConfigVersion, Int) {
        let publishedAt = date(milliseconds: milliseconds(Date()))
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
        if let audit {
            try await insertAuditEntry(
                audit, of: version, previous: state.live, cached: cached, on: connection, logger: logger)
        }
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

    /// Deletes a client's versions and customizations in one transaction holding its row, with the audit entry of
    /// `audit` when the client has a live version. Returns whether it had a live version, the last version number it
    /// had (nil without a row), and the customizations removed with their revisions (kept: numbering continues).
    static func deleteClient(
        _ database: PostgresClient, client: String, audit: AuditRecord?, origin: String,
        cached: @escaping @Sendable (Int) -> ConfigVersion?, logger: Logger
    ) async throws -> (Bool, Int?, [(String, UInt64)]) {
        try await database.transaction(logger: logger) { connection in
            let state = try await lockClient(client, on: connection, logger: logger)
            if let audit, let state, let live = state.live {
                try await insertAuditDeletion(
                    audit, client: client, lastVersion: state.last, live: live, cached: cached, on: connection,
                    logger: logger)
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

    /// Saves a batch of customizations (of distinct keys) in one statement (``SaveStatement``), each with its own
    /// expected revision, so that each comparison and its write are atomic across replicas: a revision is one past the
    /// key's last (reset or removed ones count). The statement also sends the batch's ``ChangeNotice``s, and commits:
    /// it answers once the batch is durable. Returns the new revision of each save that was written; one whose
    /// expected revision did not hold is absent.
    static func save(
        _ batch: [SaveBatcher.Save], _ database: PostgresClient, origin: String, logger: Logger
    ) async throws -> [CustomizationKey: UInt64] {
        let statement = SaveStatement(batch: batch, origin: origin)
        // Outside a transaction: the procedure commits inside, which PostgreSQL allows only at the top level.
        return try await database.withWatchedConnection { connection in
            var written: [CustomizationKey: UInt64] = [:]
            for try await row in try await connection.execute(statement, logger: logger) {
                let clients = row.clients ?? [], users = row.users ?? [], revisions = row.revisions ?? []
                guard clients.count == users.count, users.count == revisions.count else {
                    throw StoreError.unavailable
                }
                for index in clients.indices {
                    written[CustomizationKey(client: clients[index], user: users[index])] = UInt64(revisions[index])
                }
            }
            return written
        }
    }

    /// Resets a customization (taking the next revision) and sends its ``ChangeNotice``, in one transaction; nil
    /// when it had no value.
    static func reset(
        _ database: PostgresClient, client: String, user: String, origin: String, logger: Logger
    ) async throws -> UInt64? {
        try await database.transaction(logger: logger) { connection in
            var written: Int64?
            for try await revision in try await connection.query(
                """
                UPDATE tabconfig_customizations SET revision = revision + 1, value = NULL
                WHERE client = \(client) AND user_id = \(user) AND value IS NOT NULL
                RETURNING revision
                """, logger: logger
            ).decode(Int64.self) {
                written = revision
            }
            guard let written else { return nil }
            let notice = ChangeNotice(kind: .customization, origin: origin, client: client, user: user, revision: written)
            try await notify(notice, on: connection, logger: logger)
            return UInt64(written)
        }
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

    /// A date of whole milliseconds, as the store keeps it (``StoredTime``).
    static func date(milliseconds: Int64) -> Date {
        StoredTime.date(milliseconds)
    }

    /// The whole milliseconds since 1970 of a date (``StoredTime``).
    static func milliseconds(_ date: Date) -> Int64 {
        StoredTime.milliseconds(date)
    }
}
#endif
