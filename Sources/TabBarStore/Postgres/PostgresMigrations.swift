#if PostgreSQL
import Logging
import PostgresNIO

/// The PostgreSQL store's schema as numbered migrations (docs/design/stores.md, "PostgreSQL store"). Each replica
/// applies the ones the database lacks at startup, holding an advisory lock meanwhile, so replicas starting at once
/// apply each migration once. A migration is never edited after release: a change is a new one.
enum PostgresMigrations {
    /// The key of the advisory lock held while migrating ("tabconfig" in ASCII, as a number).
    static let lockKey: Int64 = 0x7461_6263_6F6E_6669

    /// The migrations, in order; the first is number 1. 1: clients, versions, customizations; 2: the audit log;
    /// 3: the procedure that writes a batch of tab-order saves and commits it (``SaveStatement``); 4: build manifests;
    /// 5: audit entries of build manifests' changes; 6: staged rollouts' states and the audit entries of their changes;
    /// 7: change requests and the audit entries of their steps.
    static let all: [[String]] = [
        [
            """
            CREATE TABLE tabconfig_clients (
                client text PRIMARY KEY,
                last_version integer NOT NULL,
                live_version integer
            )
            """,
            """
            CREATE TABLE tabconfig_versions (
                client text NOT NULL,
                version integer NOT NULL,
                published_at timestamptz NOT NULL,
                note text,
                rollback_of integer,
                document bytea NOT NULL,
                PRIMARY KEY (client, version)
            )
            """,
            """
            CREATE TABLE tabconfig_customizations (
                client text NOT NULL,
                user_id text NOT NULL,
                revision bigint NOT NULL,
                value jsonb,
                PRIMARY KEY (client, user_id)
            )
            """,
        ],
        [
            """
            CREATE TABLE tabconfig_audit (
                sequence bigserial PRIMARY KEY,
                at timestamptz NOT NULL,
                admin_key text NOT NULL,
                action text NOT NULL CHECK (action IN ('publish', 'rollback', 'delete', 'import')),
                client text NOT NULL,
                version integer NOT NULL,
                previous_version integer,
                rollback_of integer,
                summary jsonb NOT NULL,
                note text,
                request_id text
            )
            """,
            "CREATE INDEX tabconfig_audit_client_sequence ON tabconfig_audit (client, sequence)",
            "CREATE INDEX tabconfig_audit_at ON tabconfig_audit (at)",
        ],
        [
            // A batch of tab-order saves (of distinct keys) and their notices, committed inside the procedure: CALL
            // returns its written rows only once the COMMIT is durable, in one round trip, where BEGIN, a statement
            // and COMMIT take three. Each save's expected revision: -1 none, 0 no value yet, else the revision the
            // row must hold. The notices are ChangeNotice's "cs" kind: entries of at most 3,500 bytes of value
            // (ChangeNotice.maximumBatchedValue; larger ones are marked "f", fetch), a notice per client and per
            // 3,800 bytes of entries (ChangeNotice.batchedBytes), on the channel tabconfig_changes.
            """
            CREATE PROCEDURE tabconfig_save_batch(
                p_clients text[], p_users text[], p_values text[], p_expected bigint[], p_origin text,
                OUT written_clients text[], OUT written_users text[], OUT written_revisions bigint[])
            LANGUAGE plpgsql AS $procedure$
            BEGIN
                WITH input AS (
                    SELECT * FROM unnest(p_clients, p_users, p_values, p_expected)
                        AS i(client, user_id, value, expected)
                ), matched AS (
                    UPDATE tabconfig_customizations AS c SET revision = c.revision + 1, value = i.value::jsonb
                    FROM input AS i
                    WHERE i.expected > 0 AND c.client = i.client AND c.user_id = i.user_id
                        AND c.revision = i.expected AND c.value IS NOT NULL
                    RETURNING c.client, c.user_id, c.revision
                ), unconditional AS (
                    INSERT INTO tabconfig_customizations AS c (client, user_id, revision, value)
                    SELECT client, user_id, 1, value::jsonb FROM input WHERE expected = -1 ORDER BY client, user_id
                    ON CONFLICT (client, user_id) DO UPDATE SET revision = c.revision + 1, value = EXCLUDED.value
                    RETURNING c.client, c.user_id, c.revision
                ), created AS (
                    INSERT INTO tabconfig_customizations AS c (client, user_id, revision, value)
                    SELECT client, user_id, 1, value::jsonb FROM input WHERE expected = 0 ORDER BY client, user_id
                    ON CONFLICT (client, user_id) DO UPDATE SET revision = c.revision + 1, value = EXCLUDED.value
                    WHERE c.value IS NULL
                    RETURNING c.client, c.user_id, c.revision
                ), written AS (
                    SELECT * FROM matched UNION ALL SELECT * FROM unconditional UNION ALL SELECT * FROM created
                ), entries AS (
                    SELECT w.client, w.user_id, w.revision, (CASE
                        WHEN octet_length(i.value) <= 3500
                        THEN json_build_object('u', w.user_id, 'r', w.revision, 'j', i.value::json)
                        ELSE json_build_object('u', w.user_id, 'r', w.revision, 'f', true)
                        END)::text AS entry
                    FROM written AS w JOIN input AS i ON i.client = w.client AND i.user_id = w.user_id
                ), parts AS (
                    SELECT client, user_id, revision, entry, (sum(octet_length(entry) + 1) OVER (
                        PARTITION BY client ORDER BY user_id) - octet_length(entry) - 1) / 3800 AS part
                    FROM entries
                ), sent AS MATERIALIZED (
                    SELECT pg_notify('tabconfig_changes', '{"k":"cs","o":' || to_json(p_origin)::text
                        || ',"c":' || to_json(client)::text || ',"e":[' || string_agg(entry, ',') || ']}')
                    FROM parts GROUP BY client, part
                )
                SELECT array_agg(p.client), array_agg(p.user_id), array_agg(p.revision)
                INTO written_clients, written_users, written_revisions
                FROM parts AS p, (SELECT count(*) FROM sent) AS s;
                COMMIT;
            END
            $procedure$
            """,
        ],
        [
            """
            CREATE TABLE tabconfig_builds (
                client text NOT NULL,
                platform text NOT NULL,
                app_version text NOT NULL,
                revision bigint NOT NULL,
                registered_at timestamptz NOT NULL,
                document bytea NOT NULL,
                PRIMARY KEY (client, platform, app_version)
            )
            """,
            "CREATE SEQUENCE tabconfig_build_revisions",
        ],
        [
            // Audit entries of build manifests' changes: two actions, and the build with the manifest's revision.
            "ALTER TABLE tabconfig_audit DROP CONSTRAINT tabconfig_audit_action_check",
            """
            ALTER TABLE tabconfig_audit ADD CONSTRAINT tabconfig_audit_action_check
                CHECK (action IN ('publish', 'rollback', 'delete', 'import', 'registerBuild', 'removeBuild'))
            """,
            "ALTER TABLE tabconfig_audit ADD COLUMN build jsonb",
        ],
        [
            """
            CREATE TABLE tabconfig_rollouts (
                client text NOT NULL,
                tab text NOT NULL,
                plan text NOT NULL,
                stage integer NOT NULL,
                stage_started_at timestamptz NOT NULL,
                opened bigint NOT NULL,
                failed bigint NOT NULL,
                phase text NOT NULL CHECK (phase IN ('running', 'paused', 'completed', 'rolledBack')),
                reason text,
                revision bigint NOT NULL,
                updated_at timestamptz NOT NULL,
                PRIMARY KEY (client, tab)
            )
            """,
            "CREATE SEQUENCE tabconfig_rollout_revisions",
            "ALTER TABLE tabconfig_audit DROP CONSTRAINT tabconfig_audit_action_check",
            """
            ALTER TABLE tabconfig_audit ADD CONSTRAINT tabconfig_audit_action_check
                CHECK (action IN ('publish', 'rollback', 'delete', 'import', 'registerBuild', 'removeBuild',
                                  'advanceRollout', 'rollBackRollout', 'pauseRollout', 'resumeRollout',
                                  'completeRollout'))
            """,
            "ALTER TABLE tabconfig_audit ADD COLUMN rollout jsonb",
        ],
        [
            """
            CREATE TABLE tabconfig_changes (
                id bigint PRIMARY KEY,
                client text NOT NULL,
                revision integer NOT NULL,
                change jsonb NOT NULL
            )
            """,
            "CREATE INDEX tabconfig_changes_client ON tabconfig_changes (client, id)",
            "CREATE SEQUENCE tabconfig_change_ids",
            "ALTER TABLE tabconfig_audit DROP CONSTRAINT tabconfig_audit_action_check",
            """
            ALTER TABLE tabconfig_audit ADD CONSTRAINT tabconfig_audit_action_check
                CHECK (action IN ('publish', 'rollback', 'delete', 'import', 'registerBuild', 'removeBuild',
                                  'advanceRollout', 'rollBackRollout', 'pauseRollout', 'resumeRollout',
                                  'completeRollout', 'openChange', 'updateChange', 'approveChange', 'closeChange',
                                  'failChange'))
            """,
            "ALTER TABLE tabconfig_audit ADD COLUMN change jsonb",
        ],
    ]

    /// Applies the migrations the database lacks; returns how many it applied.
    static func apply(on connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await connection.query("SELECT pg_advisory_lock(\(lockKey))", logger: logger)
        do {
            let applied = try await migrate(connection, logger: logger)
            try await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
            return applied
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
            throw error
        }
    }

    private static func migrate(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS tabconfig_migrations (
                version integer PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """, logger: logger)
        var current = 0
        for try await version in try await connection.query(
            "SELECT coalesce(max(version), 0) FROM tabconfig_migrations", logger: logger
        ).decode(Int.self) {
            current = version
        }
        guard current < all.count else { return 0 }
        for number in (current + 1)...all.count {
            try await connection.transaction(logger: logger) { connection in
                for statement in all[number - 1] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO tabconfig_migrations (version) VALUES (\(number))", logger: logger)
            }
            logger.info("PostgreSQL store: applied migration \(number)")
        }
        return all.count - current
    }
}
#endif
