import Foundation
import Glibc
import TabBarModel

/// The file store's change requests (`ChangeTable`): read from memory, each step written to `changes.json` under
/// `configWrites` before it is seen.
extension FileStore {
    public func changes(client: String?) -> [ChangeRequest] {
        changeTable.withLock { $0.changes(client: client) }
    }

    public func openChange(_ change: ChangeRequest, audit record: AuditRecord?) throws -> ChangeRequest {
        guard Identifiers.isValidClient(change.client) else { throw StoreError.invalidClientID }
        return try configWrites.withLock { _ in
            if log.unavailableReason != nil { throw StoreError.unavailable }
            let next = changeTable.withLock { $0 }.opening(change, at: StoredTime.rounded(Date()))
            try audited(changeAuditEntry(record, next.change)) { try writeChanges(next.table) }
            return next.change
        }
    }

    public func writeChange(
        _ change: ChangeRequest, expectedRevision: Int, audit record: AuditRecord?
    ) throws -> ChangeRequest? {
        try configWrites.withLock { _ in
            if log.unavailableReason != nil { throw StoreError.unavailable }
            let current = changeTable.withLock { $0 }
            guard let stored = current.changes[change.id], stored.revision == expectedRevision,
                stored.client == change.client
            else { return nil }
            let next = current.writing(change, at: StoredTime.rounded(Date()))
            try audited(changeAuditEntry(record, next.change)) { try writeChanges(next.table) }
            return next.change
        }
    }

    /// The audit entry of writing `change`, nil without a record. Requires `configWrites`.
    private func changeAuditEntry(_ record: AuditRecord?, _ change: ChangeRequest) -> AuditEntry? {
        guard let record else { return nil }
        let live = catalog.withLock { $0.clients[change.client]?.live.version } ?? 0
        return AuditEntry(
            record, sequence: audit.nextSequence, time: change.updatedAt, client: change.client, liveVersion: live,
            change: change)
    }

    /// Writes `table` to `changes.json`, then makes it the one read; a failed write stops the store.
    private func writeChanges(_ table: ChangeTable) throws {
        let path = (directory as NSString).appendingPathComponent(ChangeTable.fileName)
        do {
            try io.writeAtomically(path, data: try table.encoded())
        } catch {
            log.fail("writing \(ChangeTable.fileName) failed: \(error)")
            throw StoreError.unavailable
        }
        changeTable.withLock { $0 = table }
    }

    /// The table `changes.json` in `directory` holds; empty when there is none. A file that does not read stops the
    /// open (it was written whole, so it was damaged afterwards) until `store repair` moves it aside.
    static func loadChanges(_ directory: String, io: FileIO) throws -> ChangeTable {
        let path = (directory as NSString).appendingPathComponent(ChangeTable.fileName)
        let data: Data
        do {
            data = try io.read(path)
        } catch let error as SystemError where error.code == ENOENT {
            return ChangeTable()
        }
        do {
            return try ChangeTable.decode(data)
        } catch let error as StoreOpenError {
            throw error
        } catch {
            throw StoreOpenError(
                "\(path) is damaged (\(error)); `tabconfig store repair` moves it aside, the store then opens "
                    + "without change requests: open them again")
        }
    }
}
