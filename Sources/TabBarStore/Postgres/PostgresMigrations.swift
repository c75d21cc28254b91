import Logging
import PostgresNIO

/// The PostgreSQL store's schema as numbered migrations (docs/ARCHITECTURE.md, "PostgreSQL store"). Each replica
/// applies the ones the database lacks at startup, holding an advisory lock meanwhile, so replicas starting at once
/// apply each migration once. A migration is never edited after release: a change is a new one.
enum PostgresMigrations {
    /// The key of the advisory lock held while migrating ("tabconfig" in ASCII, as a number).
    static let lockKey: Int64 = 0x7461_6263_6F6E_6669

    /// The migrations, in order; the first is number 1. 1: clients, versions, customizations; 2: the audit log.
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
