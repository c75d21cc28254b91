#if PostgreSQL
import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL store's audit log: the table `tabconfig_audit` (migration 2), read from the database on every query.
///
/// An entry is inserted in the transaction of its change, after the client's row is locked, so it commits with the
/// change or not at all. Its `sequence` is the table's `bigserial`, taken under a transaction-scoped advisory lock
/// (``auditLockKey``) held until the commit: entries are numbered in the order their changes commit, so a reader
/// paging by `after` misses none. A number taken by a transaction that rolled back is not reused: sequences can have
/// gaps.
extension PostgresStore {
    /// The key of the advisory lock audited changes hold from their entry's insert to their commit ("tabaudit").
    static let auditLockKey: Int64 = 0x7461_6261_7564_6974

    public func auditEntries(_ query: AuditQuery) throws -> [AuditEntry] {
        guard query.limit > 0 else { return [] }
        return try write { database, logger in
            try await database.withWatchedConnection { connection in
                try await Self.auditEntries(query, on: connection, logger: logger)
            }
        }
    }

    /// Inserts the audit entry of publishing `version` in the transaction on `connection`, which holds the client's
    /// row; `live` is the number of the version live before it (found through `cached`, else read in the transaction).
    static func insertAuditEntry(
        _ record: AuditRecord, of version: ConfigVersion, previous live: Int?,
        cached: @Sendable (Int) -> ConfigVersion?, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let previous = try await liveVersion(version.client, live, cached: cached, on: connection, logger: logger)
        let entry = AuditEntry(
            record, sequence: 0, time: version.publishedAt, client: version.client, version: version.version,
            previous: previous, rollbackOf: version.rollbackOf, note: version.note)
        try await insertInOrder(entry, on: connection, logger: logger)
    }

    /// Inserts the audit entry of deleting `client` (whose last version number is `lastVersion`, its live one `live`)
    /// in the transaction on `connection`, which holds the client's row.
    static func insertAuditDeletion(
        _ record: AuditRecord, client: String, lastVersion: Int, live: Int, cached: @Sendable (Int) -> ConfigVersion?,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        let previous = try await liveVersion(client, live, cached: cached, on: connection, logger: logger)
        let entry = AuditEntry(
            record, sequence: 0, time: date(milliseconds: milliseconds(Date())), client: client, version: lastVersion,
            previous: previous, rollbackOf: nil, note: nil)
        try await insertInOrder(entry, on: connection, logger: logger)
    }

    /// Inserts the audit entry of a change to `key`'s manifest (its revision `revision`: registered or removed) in the
    /// transaction on `connection`, which holds the build's lock.
    static func insertAuditBuild(
        _ record: AuditRecord, _ key: BuildKey, revision: Int, time: Date, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        let live = try await liveNumber(key.client, on: connection, logger: logger)
        let entry = AuditEntry(
            record, sequence: 0, time: time, client: key.client, liveVersion: live,
            build: AuditBuild(platform: key.platform, appVersion: key.appVersion, revision: revision))
        try await insertInOrder(entry, on: connection, logger: logger)
    }

    /// Inserts the audit entry of a staged rollout's change (`rollout`, with the revision written) in the transaction
    /// on `connection`, which holds the rollout's lock.
    static func insertAuditRollout(
        _ record: AuditRecord, _ rollout: AuditRollout, client: String, time: Date, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        let live = try await liveNumber(client, on: connection, logger: logger)
        let entry = AuditEntry(record, sequence: 0, time: time, client: client, liveVersion: live, rollout: rollout)
        try await insertInOrder(entry, on: connection, logger: logger)
    }

    /// Inserts the audit entry of a change request's step (`change` as written) in the transaction on `connection`,
    /// which holds the change's row.
    static func insertAuditChange(
        _ record: AuditRecord, _ change: ChangeRequest, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let live = try await liveNumber(change.client, on: connection, logger: logger)
        let entry = AuditEntry(
            record, sequence: 0, time: change.updatedAt, client: change.client, liveVersion: live, change: change)
        try await insertInOrder(entry, on: connection, logger: logger)
    }

    /// The client's live version number, 0 when it has none, read on `connection`.
    private static func liveNumber(_ client: String, on connection: PostgresConnection, logger: Logger) async throws
        -> Int
    {
        var live = 0
        for try await version in try await connection.query(
            "SELECT coalesce(live_version, 0) FROM tabconfig_clients WHERE client = \(client)", logger: logger
        ).decode(Int.self) {
            live = version
        }
        return live
    }

    /// Inserts `entries` in their order, their sequences the table's (theirs are ignored). With `skippingCopies`, an
    /// entry is left out where the table holds one of the same client, action, version, time and build (a copy made
    /// before). Returns how many it inserted.
    static func insertAudit(
        _ entries: [AuditEntry], skippingCopies: Bool, on connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        guard !entries.isEmpty else { return 0 }
        var bindings = PostgresBindings()
        bindings.append(entries.map { milliseconds($0.time) })
        // Each entry as its JSON (the time goes separately, as milliseconds); SQL reads the fields from it.
        let encoder = JSONEncoder()
        bindings.append(try entries.map { String(decoding: try encoder.encode($0), as: UTF8.self) })
        let copies =
            skippingCopies
            ? """
            WHERE NOT EXISTS (
                SELECT 1 FROM tabconfig_audit AS a
                WHERE a.client = s.e->>'client' AND a.action = s.e->>'action'
                    AND a.version = (s.e->>'version')::integer AND a.at = s.at
                    AND a.build IS NOT DISTINCT FROM s.e->'build' AND a.rollout IS NOT DISTINCT FROM s.e->'rollout'
                    AND a.change IS NOT DISTINCT FROM s.e->'change')
            """ : ""
        let query = PostgresQuery(
            unsafeSQL: """
                INSERT INTO tabconfig_audit (
                    at, admin_key, action, client, version, previous_version, rollback_of, summary, note, request_id,
                    build, rollout, change)
                SELECT s.at, s.e->>'key', s.e->>'action', s.e->>'client', (s.e->>'version')::integer,
                    (s.e->>'previousVersion')::integer, (s.e->>'rollbackOf')::integer, s.e->'summary', s.e->>'note',
                    s.e->>'requestID', s.e->'build', s.e->'rollout', s.e->'change'
                FROM (
                    SELECT 'epoch'::timestamptz + i.ms * interval '1 millisecond' AS at, i.json::jsonb AS e, i.position
                    FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS i(ms, json, position)
                ) AS s
                \(copies)
                ORDER BY s.position
                RETURNING 1
                """, binds: bindings)
        var inserted = 0
        for try await _ in try await connection.query(query, logger: logger).decode(Int.self) {
            inserted += 1
        }
        return inserted
    }

    /// Audit entries as the database holds them, in total.
    static func auditCount(on connection: PostgresConnection, logger: Logger) async throws -> Int {
        var count = 0
        for try await total in try await connection.query(
            "SELECT count(*)::bigint FROM tabconfig_audit", logger: logger
        ).decode(Int64.self) {
            count = Int(total)
        }
        return count
    }

    /// Takes the audit lock (until the transaction ends), then inserts `entry`: its sequence follows every committed
    /// entry's.
    private static func insertInOrder(
        _ entry: AuditEntry, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(\(auditLockKey))", logger: logger)
        _ = try await insertAudit([entry], skippingCopies: false, on: connection, logger: logger)
    }

    /// The client's version `number` (nil: none), from `cached` when the store holds it, else read on `connection`.
    private static func liveVersion(
        _ client: String, _ number: Int?, cached: @Sendable (Int) -> ConfigVersion?, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> ConfigVersion? {
        guard let number else { return nil }
        if let version = cached(number) { return version }
        return try await versions(on: connection, where: versionCondition(client, number), logger: logger).first
    }

    /// The entries `query` selects, oldest first.
    private static func auditEntries(
        _ query: AuditQuery, on connection: PostgresConnection, logger: Logger
    ) async throws -> [AuditEntry] {
        var bindings = PostgresBindings()
        var conditions = ["TRUE"]
        if let client = query.client {
            bindings.append(client)
            conditions.append("client = $\(bindings.count)")
        }
        if let since = query.since {
            bindings.append(milliseconds(since))
            conditions.append("at >= 'epoch'::timestamptz + $\(bindings.count) * interval '1 millisecond'")
        }
        if let after = query.after {
            bindings.append(Int64(after))
            conditions.append("sequence > $\(bindings.count)")
        }
        bindings.append(Int64(query.limit))
        let select = PostgresQuery(
            unsafeSQL: """
                SELECT sequence, (extract(epoch FROM at) * 1000)::bigint, admin_key, action, client, version,
                    previous_version, rollback_of, summary::text, note, request_id, build::text, rollout::text,
                    change::text
                FROM tabconfig_audit WHERE \(conditions.joined(separator: " AND "))
                ORDER BY sequence LIMIT $\(bindings.count)
                """, binds: bindings)
        var entries: [AuditEntry] = []
        let decoder = JSONDecoder()
        for try await (
            sequence, time, key, action, client, version, previous, rollbackOf, summary, note, request, build, rollout,
            change
        )
            in try await connection.query(select, logger: logger).decode(
                (
                    Int64, Int64, String, String, String, Int, Int?, Int?, String, String?, String?, String?, String?,
                    String?
                ).self)
        {
            guard let action = AuditAction(rawValue: action) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown action \(action)"))
            }
            entries.append(
                AuditEntry(
                    sequence: Int(sequence), time: date(milliseconds: time), key: key, action: action, client: client,
                    version: version, previousVersion: previous, rollbackOf: rollbackOf,
                    summary: try decoder.decode(AuditSummary.self, from: Data(summary.utf8)), note: note,
                    requestID: request, build: try build.map { try decoder.decode(AuditBuild.self, from: Data($0.utf8)) },
                    rollout: try rollout.map { try decoder.decode(AuditRollout.self, from: Data($0.utf8)) },
                    change: try change.map { try decoder.decode(AuditChange.self, from: Data($0.utf8)) }))
        }
        return entries
    }
}
#endif
