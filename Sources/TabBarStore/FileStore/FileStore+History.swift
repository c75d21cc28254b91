import Foundation
import Logging

extension FileStore {
    public func versionHistory(client: String) -> [ConfigVersionInfo] {
        let versions = catalog.withLock { $0.clients[client]?.versions ?? [] }
        return versions.reversed().map {
            ConfigVersionInfo(
                client: client, version: $0.version, publishedAt: $0.publishedAt, note: $0.note,
                rollbackOf: $0.rollbackOf, size: $0.size
            )
        }
    }

    /// Forgets the client's versions beyond `keepVersions` (never the live one), then deletes their files durably.
    /// Called after a durable publish, which a failure here does not undo: like every failed write or fsync, it makes
    /// the store refuse writes, and any file left behind is pruned at the next open.
    func pruneVersions(client: String) {
        let doomed = catalog.withLock { $0.prune(client: client, keep: keepVersions) }
        guard !doomed.isEmpty else { return }
        let versionsDirectory = [clientsDirectory, client, "versions"].joined(separator: "/")
        do {
            try Self.removeVersionFiles(
                doomed.map { versionPath(client: client, number: $0) }, in: versionsDirectory, io: io
            )
        } catch {
            log.fail("pruning old versions of \(client) failed: \(error)")
        }
    }

    /// Unlinks version files (oldest first), then fsyncs their directory so the removals are durable.
    static func removeVersionFiles(_ paths: [String], in versionsDirectory: String, io: FileIO) throws {
        for path in paths {
            try io.removeFile(path)
        }
        try io.syncDirectory(versionsDirectory)
    }
}

extension FileStore {
    /// Publishes `document` as a new version of `client` straight into the data directory `directory`, which no
    /// server may be running on (the store takes the directory's exclusive lock): opens the store keeping
    /// `keepVersions` versions per client, publishes, closes it.
    public static func publish(
        into directory: URL, client: String, document: Data, note: String?, keepVersions: Int, logger: Logger
    ) throws -> ConfigVersion {
        var options = Options()
        options.keepVersions = keepVersions
        let store = try FileStore(directory: directory, options: options, logger: logger)
        defer { store.close() }
        return try store.publish(client: client, document: document, note: note, rollbackOf: nil)
    }
}
