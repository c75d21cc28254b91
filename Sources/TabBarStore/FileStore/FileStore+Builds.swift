import Foundation
import Glibc
import TabBarModel

/// The file store's build manifests (`BuildTable`): read from memory, each change written to `builds.json` under
/// `configWrites` before it is seen.
extension FileStore {
    public func builds(client: String) -> [StoredBuild] {
        buildTable.withLock { $0.builds(client: client) }
    }

    public func build(client: String, platform: String, appVersion: String) -> StoredBuild? {
        buildTable.withLock { $0.builds[BuildKey(client: client, platform: platform, appVersion: appVersion)] }
    }

    public func registerBuild(
        client: String, platform: String, appVersion: String, document: Data, audit record: AuditRecord?
    ) throws -> (build: StoredBuild, change: BuildChange) {
        let key = try BuildKey.registering(
            client: client, platform: platform, appVersion: appVersion, document: document)
        return try configWrites.withLock { _ in
            if log.unavailableReason != nil { throw StoreError.unavailable }
            let current = buildTable.withLock { $0 }
            let next = current.registering(key, document: document, at: StoredTime.rounded(Date()))
            if next.change != .unchanged {
                let entry = buildAuditEntry(record, key, revision: next.build.revision, time: next.build.registeredAt)
                try audited(entry) { try writeBuilds(next.table) }
            }
            return (next.build, next.change)
        }
    }

    public func deleteBuild(
        client: String, platform: String, appVersion: String, audit record: AuditRecord?
    ) throws -> Bool {
        let key = BuildKey(client: client, platform: platform, appVersion: appVersion)
        return try configWrites.withLock { _ in
            if log.unavailableReason != nil { throw StoreError.unavailable }
            let current = buildTable.withLock { $0 }
            guard let removed = current.builds[key] else { return false }
            let entry = buildAuditEntry(record, key, revision: removed.revision, time: StoredTime.rounded(Date()))
            try audited(entry) { try writeBuilds(current.removing(key)) }
            return true
        }
    }

    /// The audit entry of a change to `key`'s manifest (revision `revision`: the one registered or removed), nil
    /// without a record. Requires `configWrites`.
    private func buildAuditEntry(_ record: AuditRecord?, _ key: BuildKey, revision: Int, time: Date) -> AuditEntry? {
        guard let record else { return nil }
        let live = catalog.withLock { $0.clients[key.client]?.live.version } ?? 0
        return AuditEntry(
            record, sequence: audit.nextSequence, time: time, client: key.client, liveVersion: live,
            build: AuditBuild(platform: key.platform, appVersion: key.appVersion, revision: revision))
    }

    /// Writes `table` to `builds.json`, then makes it the one read; a failed write stops the store.
    private func writeBuilds(_ table: BuildTable) throws {
        let path = (directory as NSString).appendingPathComponent(BuildTable.fileName)
        do {
            try io.writeAtomically(path, data: try table.encoded())
        } catch {
            log.fail("writing \(BuildTable.fileName) failed: \(error)")
            throw StoreError.unavailable
        }
        buildTable.withLock { $0 = table }
    }

    /// The table `builds.json` in `directory` holds; empty when there is none. A file that does not read stops the
    /// open (it was written whole, so it was damaged afterwards) until `store repair` moves it aside.
    static func loadBuilds(_ directory: String, io: FileIO) throws -> BuildTable {
        let path = (directory as NSString).appendingPathComponent(BuildTable.fileName)
        let data: Data
        do {
            data = try io.read(path)
        } catch let error as SystemError where error.code == ENOENT {
            return BuildTable()
        }
        do {
            return try BuildTable.decode(data)
        } catch let error as StoreOpenError {
            throw error
        } catch {
            throw StoreOpenError(
                "\(path) is damaged (\(error)); `tabconfig store repair` moves it aside, the store then opens "
                    + "without build manifests: register them again")
        }
    }
}
