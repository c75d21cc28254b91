import Foundation

/// The file store's audit log (`AuditLog`): entries are written ahead of their changes, under `configWrites`.
extension FileStore {
    /// Reads from memory: every entry is kept there (one per audited change, a few hundred bytes each). Never throws.
    public func auditEntries(_ query: AuditQuery) throws -> [AuditEntry] {
        audit.entries(query)
    }

    /// Makes a config change with its audit entry written ahead of it; with no entry, just makes it. Requires
    /// `configWrites`, and every check that can refuse the change done.
    ///
    /// The entry is encoded (a `StoreError.recordTooLarge` refuses the change, nothing written), appended and fsynced;
    /// then `change` runs. Once it succeeded, readers see the entry. When it fails (it stopped the store), the entry is
    /// cut from the file again, so that nothing reports a change that was not made; when the append fails, the store
    /// stops taking writes and the change is not made.
    func audited(_ entry: AuditEntry?, _ change: () throws -> Void) throws {
        guard let entry else { return try change() }
        let record = try AuditLog.record(entry)
        let offset: Int
        do {
            offset = try audit.append(record)
        } catch {
            log.fail("writing the audit log failed: \(error)")
            throw StoreError.unavailable
        }
        do {
            try change()
        } catch {
            audit.cut(at: offset)
            throw error
        }
        audit.commit(entry)
    }

    /// Whether the change an audit entry records is in the store, judged at open from the versions (`versions`), the
    /// deleted clients' numbers (`log`) and the build manifests (`builds`): a publish, rollback or import made a
    /// version number the client has had (retained, moved aside as damaged, or deleted since); a delete left the
    /// client no version numbered up to the entry's; a registration gave out its revision; a removal left the build
    /// no manifest of its revision or before; a rollout's change gave out its state's revision (`rollouts`); a change
    /// request's step left the change at its revision or later (`changes`).
    static func happened(
        _ entry: AuditEntry, versions: VersionCatalog, log: CustomizationLog, builds: BuildTable,
        rollouts: RolloutTable, changes: ChangeTable
    ) -> Bool {
        switch entry.action {
        case .openChange, .updateChange, .approveChange, .closeChange, .failChange:
            guard let change = entry.change else { return true }
            return (changes.changes[change.id]?.revision ?? 0) >= change.revision
        case .advanceRollout, .rollBackRollout, .pauseRollout, .resumeRollout, .completeRollout:
            return (entry.rollout?.revision ?? 0) <= rollouts.lastRevision
        case .registerBuild:
            return (entry.build?.revision ?? 0) <= builds.lastRevision
        case .removeBuild:
            guard let build = entry.build else { return true }
            let key = BuildKey(client: entry.client, platform: build.platform, appVersion: build.appVersion)
            return (builds.builds[key]?.revision ?? .max) > build.revision
        case .delete:
            let kept = versions.clients[entry.client]?.versions ?? []
            return !kept.contains { $0.version <= entry.version }
        case .publish, .rollback, .import:
            let had = max(
                versions.highestNumber(client: entry.client) ?? 0, log.lastDeletedVersion(client: entry.client) ?? 0)
            return entry.version <= had
        }
    }
}
