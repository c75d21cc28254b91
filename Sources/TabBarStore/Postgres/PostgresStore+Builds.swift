#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import TabBarModel

/// Build manifests in `tabconfig_builds`: read from memory (``PostgresCache``), each write one transaction holding the
/// build's advisory lock, with a ``ChangeNotice/Kind/build`` notice that makes the other replicas read the row.
extension PostgresStore {
    public func builds(client: String) -> [StoredBuild] {
        cache.withLock { $0.builds.builds(of: client) }
    }

    public func build(client: String, platform: String, appVersion: String) -> StoredBuild? {
        cache.withLock { $0.builds[BuildKey(client: client, platform: platform, appVersion: appVersion)] }
    }

    public func registerBuild(
        client: String, platform: String, appVersion: String, document: Data, audit record: AuditRecord?
    ) throws -> (build: StoredBuild, change: BuildChange) {
        let key = try BuildKey.registering(
            client: client, platform: platform, appVersion: appVersion, document: document)
        let registered = try write { database, logger in
            try await Self.register(
                key, document: document, audit: record, database, origin: self.origin, logger: logger)
        }
        cache.withLock { $0.setBuild(registered.build) }
        return registered
    }

    public func deleteBuild(
        client: String, platform: String, appVersion: String, audit record: AuditRecord?
    ) throws -> Bool {
        let key = BuildKey(client: client, platform: platform, appVersion: appVersion)
        let removed = try write { database, logger in
            try await Self.remove(key, audit: record, database, origin: self.origin, logger: logger)
        }
        guard let removed else { return false }
        cache.withLock { $0.removeBuild(key, through: removed) }
        return true
    }

    /// The build of `key` as the database holds it now (not the cache): for checking a migration.
    func storedBuild(_ key: BuildKey) -> StoredBuild? {
        try? write { database, logger in try await Self.build(database, key, logger: logger) }
    }

    /// Registers `document` for `key` in one transaction: unchanged when the row holds the same document, else the
    /// row written with the next revision, its audit entry (with `record`) and a notice sent.
    private static func register(
        _ key: BuildKey, document: Data, audit record: AuditRecord?, _ database: PostgresClient, origin: String,
        logger: Logger
    ) async throws -> (build: StoredBuild, change: BuildChange) {
        try await database.transaction(logger: logger) { connection in
            try await lock(key, on: connection, logger: logger)
            let current = try await builds(on: connection, where: condition(key), logger: logger).first
            if let current, current.document == document { return (current, .unchanged) }
            var revision = 0
            for try await next in try await connection.query(
                "SELECT nextval('tabconfig_build_revisions')", logger: logger
            ).decode(Int.self) {
                revision = next
            }
            let registeredAt = date(milliseconds: milliseconds(Date()))
            try await connection.query(
                """
                INSERT INTO tabconfig_builds (client, platform, app_version, revision, registered_at, document)
                VALUES (\(key.client), \(key.platform), \(key.appVersion), \(revision),
                        'epoch'::timestamptz + \(milliseconds(registeredAt)) * interval '1 millisecond', \(document))
                ON CONFLICT (client, platform, app_version) DO UPDATE
                SET revision = EXCLUDED.revision, registered_at = EXCLUDED.registered_at, document = EXCLUDED.document
                """, logger: logger)
            if let record {
                try await insertAuditBuild(
                    record, key, revision: revision, time: registeredAt, on: connection, logger: logger)
            }
            try await notify(notice(key, revision: revision, origin: origin), on: connection, logger: logger)
            let build = StoredBuild(
                client: key.client, platform: key.platform, appVersion: key.appVersion, revision: revision,
                registeredAt: registeredAt, document: document)
            return (build, current == nil ? .created : .replaced)
        }
    }

    /// Removes `key`'s row in one transaction, with its audit entry (with `record`); returns the removed manifest's
    /// revision, nil when there was none.
    private static func remove(
        _ key: BuildKey, audit record: AuditRecord?, _ database: PostgresClient, origin: String, logger: Logger
    ) async throws -> Int? {
        try await database.transaction(logger: logger) { connection in
            try await lock(key, on: connection, logger: logger)
            var removed: Int?
            for try await revision in try await connection.query(
                """
                DELETE FROM tabconfig_builds
                WHERE client = \(key.client) AND platform = \(key.platform) AND app_version = \(key.appVersion)
                RETURNING revision
                """, logger: logger
            ).decode(Int.self) {
                removed = revision
            }
            if let removed {
                if let record {
                    try await insertAuditBuild(
                        record, key, revision: removed, time: date(milliseconds: milliseconds(Date())),
                        on: connection, logger: logger)
                }
                try await notify(notice(key, revision: removed, origin: origin), on: connection, logger: logger)
            }
            return removed
        }
    }

    /// Serializes the transactions writing one build, a row that may not exist yet.
    private static func lock(_ key: BuildKey, on connection: PostgresConnection, logger: Logger) async throws {
        let name = "tabconfig build \(key.client) \(key.platform) \(key.appVersion)"
        try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(name), 0))", logger: logger)
    }

    private static func notice(_ key: BuildKey, revision: Int, origin: String) -> ChangeNotice {
        var notice = ChangeNotice(kind: .build, origin: origin, client: key.client)
        notice.platform = key.platform
        notice.appVersion = key.appVersion
        notice.revision = Int64(revision)
        return notice
    }

    /// The `WHERE` clause of one build.
    private static func condition(_ key: BuildKey) -> PostgresQuery {
        var condition = PostgresQuery(unsafeSQL: "client = $1 AND platform = $2 AND app_version = $3")
        condition.binds.append(key.client)
        condition.binds.append(key.platform)
        condition.binds.append(key.appVersion)
        return condition
    }

    /// Every stored build, for the cache.
    static func builds(_ database: PostgresClient, logger: Logger) async throws -> [StoredBuild] {
        try await database.withWatchedConnection { connection in
            try await builds(on: connection, where: PostgresQuery(unsafeSQL: "TRUE"), logger: logger)
        }
    }

    /// The build of `key`, nil when it has none: what a notice of another replica's write makes this one read.
    static func build(_ database: PostgresClient, _ key: BuildKey, logger: Logger) async throws -> StoredBuild? {
        try await database.withWatchedConnection { connection in
            try await builds(on: connection, where: condition(key), logger: logger).first
        }
    }

    /// The builds `condition` selects, read on `connection`.
    private static func builds(
        on connection: PostgresConnection, where condition: PostgresQuery, logger: Logger
    ) async throws -> [StoredBuild] {
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT client, platform, app_version, revision, (extract(epoch FROM registered_at) * 1000)::bigint,
                       document
                FROM tabconfig_builds WHERE \(condition.sql)
                """, binds: condition.binds)
        var builds: [StoredBuild] = []
        for try await (client, platform, appVersion, revision, milliseconds, document) in try await connection.query(
            query, logger: logger
        ).decode((String, String, String, Int, Int64, Data).self) {
            builds.append(
                StoredBuild(
                    client: client, platform: platform, appVersion: appVersion, revision: revision,
                    registeredAt: date(milliseconds: milliseconds), document: document))
        }
        return builds
    }

    /// Applies another replica's notice of a build change: reads the build's row, or forgets the manifest it removed.
    func applyBuildNotice(_ notice: ChangeNotice) async throws {
        guard let platform = notice.platform, let appVersion = notice.appVersion, let revision = notice.revision else {
            return
        }
        let key = BuildKey(client: notice.client, platform: platform, appVersion: appVersion)
        let stored = try await Self.build(client, key, logger: logger)
        cache.withLock { cache in
            if let stored {
                cache.setBuild(stored)
            } else {
                cache.removeBuild(key, through: Int(revision))
            }
        }
        observer.withLock { $0 }?(.builds(client: notice.client))
    }
}
#endif
