#if PostgreSQL
import Foundation
import Logging
import PostgresNIO

/// Staged rollouts' states in `tabconfig_rollouts`: read from memory (``PostgresCache``), each write one transaction
/// holding the row (or the tab's advisory lock while there is none), with a ``ChangeNotice/Kind/rollouts`` notice that
/// makes every replica read the client's states again. Counts are added in place, so every replica's add up.
extension PostgresStore {
    public func rolloutStates(client: String) -> [RolloutState] {
        cache.withLock { $0.rollouts[client] ?? [] }
    }

    public func currentRolloutStates(client: String) throws -> [RolloutState] {
        let states = try write { database, logger in
            try await Self.rolloutStates(database, of: client, logger: logger)
        }
        cache.withLock { $0.setRollouts(client: client, states) }
        return states
    }

    public func writeRolloutState(
        _ state: RolloutState, replacing expected: RolloutState?, audit record: AuditRecord?
    ) throws -> RolloutState? {
        let written = try write { database, logger in
            try await database.transaction(logger: logger) { connection in
                try await Self.lockRollout(state.key, on: connection, logger: logger)
                let stored = try await Self.rolloutStates(
                    on: connection, where: Self.condition(state.key), logger: logger
                ).first
                guard RolloutState.isUnchanged(stored, since: expected) else { return RolloutState?.none }
                var written = state
                for try await revision in try await connection.query(
                    "SELECT nextval('tabconfig_rollout_revisions')", logger: logger
                ).decode(Int.self) {
                    written.revision = revision
                }
                written.stageStartedAt = StoredTime.rounded(state.stageStartedAt)
                written.updatedAt = StoredTime.rounded(Date())
                try await Self.upsert(written, on: connection, logger: logger)
                if let record, var rollout = record.rollout {
                    rollout.revision = written.revision
                    try await Self.insertAuditRollout(
                        record, rollout, client: state.client, time: written.updatedAt, on: connection, logger: logger)
                }
                try await Self.notify(
                    ChangeNotice(kind: .rollouts, origin: self.origin, client: state.client), on: connection,
                    logger: logger)
                return written
            }
        }
        if written != nil { _ = try? currentRolloutStates(client: state.client) }
        return written
    }

    public func removeRolloutStates(client: String, keeping: Set<String>) throws {
        let removed = try write { database, logger in
            try await database.transaction(logger: logger) { connection in
                var removed = 0
                for try await _ in try await connection.query(
                    """
                    DELETE FROM tabconfig_rollouts WHERE client = \(client) AND NOT (tab = ANY(\(Array(keeping))))
                    RETURNING tab
                    """, logger: logger
                ).decode(String.self) {
                    removed += 1
                }
                if removed > 0 {
                    try await Self.notify(
                        ChangeNotice(kind: .rollouts, origin: self.origin, client: client), on: connection,
                        logger: logger)
                }
                return removed
            }
        }
        if removed > 0 { _ = try currentRolloutStates(client: client) }
    }

    public func addRolloutCounts(
        client: String, tab: String, plan: String, stage: Int, opened: Int, failed: Int
    ) throws -> RolloutState? {
        let key = RolloutKey(client: client, tab: tab)
        let counted = try write { database, logger in
            try await database.transaction(logger: logger) { connection in
                var addition = PostgresBindings()
                addition.append(Int64(opened))
                addition.append(Int64(failed))
                for bind in [key.client, key.tab, plan] { addition.append(bind) }
                addition.append(stage)
                let updated = try await Self.rolloutStates(
                    on: connection,
                    update: PostgresQuery(
                        unsafeSQL: """
                            UPDATE tabconfig_rollouts SET opened = opened + $1, failed = failed + $2
                            WHERE client = $3 AND tab = $4 AND plan = $5 AND stage = $6 AND phase = 'running'
                            """, binds: addition),
                    logger: logger
                ).first
                if updated != nil, opened > 0 || failed > 0 {
                    try await Self.notify(
                        ChangeNotice(kind: .rollouts, origin: self.origin, client: client), on: connection,
                        logger: logger)
                }
                return updated
            }
        }
        if counted != nil { _ = try? currentRolloutStates(client: client) }
        return counted
    }

    /// Serializes the transactions writing one rollout's state, a row that may not exist yet.
    private static func lockRollout(_ key: RolloutKey, on connection: PostgresConnection, logger: Logger) async throws {
        let name = "tabconfig rollout \(key.client) \(key.tab)"
        try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(name), 0))", logger: logger)
    }

    /// Writes `state`'s row, new or replacing the tab's.
    private static func upsert(_ state: RolloutState, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO tabconfig_rollouts (client, tab, plan, stage, stage_started_at, opened, failed, phase, reason,
                                            revision, updated_at)
            VALUES (\(state.client), \(state.tab), \(state.plan), \(state.stage),
                    'epoch'::timestamptz + \(milliseconds(state.stageStartedAt)) * interval '1 millisecond',
                    \(Int64(state.opened)), \(Int64(state.failed)), \(state.phase.rawValue), \(state.reason),
                    \(Int64(state.revision)),
                    'epoch'::timestamptz + \(milliseconds(state.updatedAt)) * interval '1 millisecond')
            ON CONFLICT (client, tab) DO UPDATE
            SET plan = EXCLUDED.plan, stage = EXCLUDED.stage, stage_started_at = EXCLUDED.stage_started_at,
                opened = EXCLUDED.opened, failed = EXCLUDED.failed, phase = EXCLUDED.phase, reason = EXCLUDED.reason,
                revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at
            """, logger: logger)
    }

    /// The `WHERE` clause of one rollout ($1 the client, $2 the tab).
    private static func condition(_ key: RolloutKey) -> PostgresQuery {
        var condition = PostgresQuery(unsafeSQL: "client = $1 AND tab = $2")
        condition.binds.append(key.client)
        condition.binds.append(key.tab)
        return condition
    }

    /// The columns of a state, in the order ``state(_:)`` reads them.
    private static let columns = """
        client, tab, plan, stage, (extract(epoch FROM stage_started_at) * 1000)::bigint, opened, failed, phase, reason,
        revision, (extract(epoch FROM updated_at) * 1000)::bigint
        """

    /// Every state of `client` (of every client when nil), read now.
    static func rolloutStates(
        _ database: PostgresClient, of client: String?, logger: Logger
    ) async throws -> [RolloutState] {
        try await database.withWatchedConnection { connection in
            var condition = PostgresQuery(unsafeSQL: "TRUE")
            if let client {
                condition = PostgresQuery(unsafeSQL: "client = $1")
                condition.binds.append(client)
            }
            return try await rolloutStates(on: connection, where: condition, logger: logger)
        }
    }

    /// The states `condition` selects, read on `connection`.
    private static func rolloutStates(
        on connection: PostgresConnection, where condition: PostgresQuery, logger: Logger
    ) async throws -> [RolloutState] {
        try await rolloutStates(
            on: connection,
            update: PostgresQuery(
                unsafeSQL: "SELECT \(columns) FROM tabconfig_rollouts WHERE \(condition.sql) ORDER BY tab",
                binds: condition.binds),
            logger: logger, returning: false)
    }

    /// The states `query` returns: a `SELECT` of ``columns``, or (`returning`) a statement given them as its
    /// `RETURNING` clause.
    private static func rolloutStates(
        on connection: PostgresConnection, update query: PostgresQuery, logger: Logger, returning: Bool = true
    ) async throws -> [RolloutState] {
        let statement = PostgresQuery(
            unsafeSQL: returning ? "\(query.sql) RETURNING \(columns)" : query.sql, binds: query.binds)
        var states: [RolloutState] = []
        for try await (client, tab, plan, stage, started, opened, failed, phase, reason, revision, updated)
            in try await connection.query(statement, logger: logger).decode(
                (String, String, String, Int, Int64, Int64, Int64, String, String?, Int64, Int64).self)
        {
            states.append(
                RolloutState(
                    client: client, tab: tab, plan: plan, stage: stage, stageStartedAt: date(milliseconds: started),
                    opened: Int(opened), failed: Int(failed), phase: RolloutState.Phase(rawValue: phase) ?? .paused,
                    reason: reason, revision: Int(revision), updatedAt: date(milliseconds: updated)))
        }
        return states
    }
}
#endif
