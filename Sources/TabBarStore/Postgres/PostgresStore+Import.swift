#if PostgreSQL
import Foundation
import PostgresNIO

/// Writing what another store holds, numbers kept (``StoreMigration``): each statement leaves alone what the database
/// already holds at the same or a newer number, and returns how many rows it wrote.
extension PostgresStore {
    /// Writes a client's versions and its numbering (`lastVersion`: the highest number it ever used); the newest
    /// version becomes live. Returns the versions written.
    func importVersions(client: String, _ versions: [ConfigVersion], lastVersion: Int) throws -> Int {
        let live = versions.map(\.version).max()
        return try write { database, logger in
            try await database.transaction(logger: logger) { connection in
                var written = 0
                for version in versions {
                    if try await Self.insert(version, on: connection, logger: logger) { written += 1 }
                }
                try await connection.query(
                    """
                    INSERT INTO tabconfig_clients AS c (client, last_version, live_version)
                    VALUES (\(client), \(max(lastVersion, live ?? 0)), \(live))
                    ON CONFLICT (client) DO UPDATE
                    SET last_version = GREATEST(c.last_version, EXCLUDED.last_version),
                        live_version = GREATEST(c.live_version, EXCLUDED.live_version)
                    WHERE c.last_version < EXCLUDED.last_version
                       OR c.live_version IS DISTINCT FROM GREATEST(c.live_version, EXCLUDED.live_version)
                    """, logger: logger)
                return written
            }
        }
    }

    /// Writes customizations with their revisions (a nil value: reset) where the database holds an older revision
    /// or none. Returns how many it wrote.
    func importCustomizations(_ entries: [(CustomizationKey, CustomizationEntry)]) throws -> Int {
        guard !entries.isEmpty else { return 0 }
        let clients = entries.map(\.0.client)
        let users = entries.map(\.0.user)
        let revisions = entries.map { Int64($0.1.revision) }
        // "" stands for a reset one: no JSON document is empty.
        let values = try entries.map { try $0.1.value.map(Self.json) ?? "" }
        return try write { database, logger in
            try await database.withWatchedConnection { connection in
                var written = 0
                for try await _ in try await connection.query(
                    """
                    INSERT INTO tabconfig_customizations AS c (client, user_id, revision, value)
                    SELECT client, user_id, revision, NULLIF(value, '')::jsonb
                    FROM unnest(\(clients)::text[], \(users)::text[], \(revisions)::bigint[], \(values)::text[])
                        AS source (client, user_id, revision, value)
                    ON CONFLICT (client, user_id) DO UPDATE SET revision = EXCLUDED.revision, value = EXCLUDED.value
                    WHERE c.revision < EXCLUDED.revision
                    RETURNING 1
                    """, logger: logger
                ).decode(Int.self) {
                    written += 1
                }
                return written
            }
        }
    }

    /// Writes audit entries in their order, leaving out each one the database holds already (same client, action,
    /// version and time). Returns how many it wrote.
    func importAudit(_ entries: [AuditEntry]) throws -> Int {
        try write { database, logger in
            try await database.transaction(logger: logger) { connection in
                try await Self.insertAudit(entries, skippingCopies: true, on: connection, logger: logger)
            }
        }
    }

    /// Writes build manifests with their revisions where the database holds an older revision or none, and moves
    /// the revision sequence past them. Returns how many it wrote.
    func importBuilds(_ builds: [StoredBuild]) throws -> Int {
        guard !builds.isEmpty else { return 0 }
        return try write { database, logger in
            try await database.transaction(logger: logger) { connection in
                var written = 0
                for build in builds {
                    for try await _ in try await connection.query(
                        """
                        INSERT INTO tabconfig_builds AS b (client, platform, app_version, revision, registered_at, document)
                        VALUES (\(build.client), \(build.platform), \(build.appVersion), \(build.revision),
                                'epoch'::timestamptz + \(Self.milliseconds(build.registeredAt)) * interval '1 millisecond',
                                \(build.document))
                        ON CONFLICT (client, platform, app_version) DO UPDATE
                        SET revision = EXCLUDED.revision, registered_at = EXCLUDED.registered_at,
                            document = EXCLUDED.document
                        WHERE b.revision < EXCLUDED.revision
                        RETURNING 1
                        """, logger: logger
                    ).decode(Int.self) {
                        written += 1
                    }
                }
                let highest = builds.map(\.revision).max() ?? 0
                try await connection.query(
                    """
                    SELECT setval('tabconfig_build_revisions', GREATEST(\(highest),
                        (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM tabconfig_build_revisions)), true)
                    """, logger: logger)
                return written
            }
        }
    }

    /// Versions per client, customizations with a value and audit entries, as the database holds them.
    func storedCounts() throws -> (versions: [String: Int], customizations: Int, auditEntries: Int) {
        try write { database, logger in
            try await database.withWatchedConnection { connection in
                var versions: [String: Int] = [:]
                for try await (client, count) in try await connection.query(
                    "SELECT client, count(*)::bigint FROM tabconfig_versions GROUP BY client", logger: logger
                ).decode((String, Int64).self) {
                    versions[client] = Int(count)
                }
                var customizations = 0
                for try await count in try await connection.query(
                    "SELECT count(*)::bigint FROM tabconfig_customizations WHERE value IS NOT NULL", logger: logger
                ).decode(Int64.self) {
                    customizations = Int(count)
                }
                return (versions, customizations, try await Self.auditCount(on: connection, logger: logger))
            }
        }
    }
}
#endif
