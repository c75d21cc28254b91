import Foundation
import Glibc

/// The file store's staged rollouts' states (`RolloutTable`): read from memory, each change written to
/// `rollouts.json` under `configWrites` before it is seen. One process owns the directory, so the states in memory are
/// the current ones.
extension FileStore {
    public func rolloutStates(client: String) -> [RolloutState] {
        rolloutTable.withLock { $0.states(client: client) }
    }

    public func currentRolloutStates(client: String) throws -> [RolloutState] {
        rolloutStates(client: client)
    }

    public func writeRolloutState(
        _ state: RolloutState, replacing expected: RolloutState?, audit record: AuditRecord?
    ) throws -> RolloutState? {
        try configWrites.withLock { _ in
            if log.unavailableReason != nil { throw StoreError.unavailable }
            let current = rolloutTable.withLock { $0 }
            guard RolloutState.isUnchanged(current.states[state.key], since: expected) else { return nil }
            let next = current.writing(state, at: StoredTime.rounded(Date()))
            try audited(rolloutAuditEntry(record, next.state)) { try writeRollouts(next.table) }
            return next.state
        }
    }

    public func removeRolloutStates(client: String, keeping: Set<String>) throws {
        try configWrites.withLock { _ in
            if log.unavailableReason != nil { throw StoreError.unavailable }
            let current = rolloutTable.withLock { $0 }
            let next = current.removing(client: client, keeping: keeping)
            guard next.states.count != current.states.count else { return }
            try writeRollouts(next)
        }
    }

    public func addRolloutCounts(
        client: String, tab: String, plan: String, stage: Int, opened: Int, failed: Int
    ) throws -> RolloutState? {
        let key = RolloutKey(client: client, tab: tab)
        return try configWrites.withLock { _ in
            if log.unavailableReason != nil { throw StoreError.unavailable }
            let current = rolloutTable.withLock { $0 }
            guard let state = current.states[key], state.plan == plan, state.stage == stage, state.phase == .running
            else { return nil }
            guard opened > 0 || failed > 0 else { return state }
            let next = current.adding(key, opened: opened, failed: failed)
            try writeRollouts(next)
            return next.states[key]
        }
    }

    /// The audit entry of writing `state`, nil without a record. Requires `configWrites`.
    private func rolloutAuditEntry(_ record: AuditRecord?, _ state: RolloutState) -> AuditEntry? {
        guard let record, var rollout = record.rollout else { return nil }
        rollout.revision = state.revision
        let live = catalog.withLock { $0.clients[state.client]?.live.version } ?? 0
        return AuditEntry(
            record, sequence: audit.nextSequence, time: state.updatedAt, client: state.client, liveVersion: live,
            rollout: rollout)
    }

    /// Writes `table` to `rollouts.json`, then makes it the one read; a failed write stops the store.
    private func writeRollouts(_ table: RolloutTable) throws {
        let path = (directory as NSString).appendingPathComponent(RolloutTable.fileName)
        do {
            try io.writeAtomically(path, data: try table.encoded())
        } catch {
            log.fail("writing \(RolloutTable.fileName) failed: \(error)")
            throw StoreError.unavailable
        }
        rolloutTable.withLock { $0 = table }
    }

    /// The table `rollouts.json` in `directory` holds; empty when there is none. A file that does not read stops the
    /// open (it was written whole, so it was damaged afterwards) until `store repair` moves it aside.
    static func loadRollouts(_ directory: String, io: FileIO) throws -> RolloutTable {
        let path = (directory as NSString).appendingPathComponent(RolloutTable.fileName)
        let data: Data
        do {
            data = try io.read(path)
        } catch let error as SystemError where error.code == ENOENT {
            return RolloutTable()
        }
        do {
            return try RolloutTable.decode(data)
        } catch let error as StoreOpenError {
            throw error
        } catch {
            throw StoreOpenError(
                "\(path) is damaged (\(error)); `tabconfig store repair` moves it aside, the store then opens "
                    + "with every staged rollout back at its first stage: pause or roll back those that had failed")
        }
    }
}
