#if PostgreSQL
import Foundation

/// Copies a file store into a PostgreSQL store (`tabconfig migrate-store`): every client's retained versions with
/// their numbers, dates, notes and rollbacks, each client's version numbering (deleted clients' included), every
/// customization with its revision (reset ones too, so that revisions keep counting), the audit log in its order,
/// the build manifests with their revisions, and where each staged rollout stands (a rollout the target holds
/// already is left as it is there).
/// Idempotent: what the target already holds at the same or a newer revision is left alone, and an audit entry it
/// holds (same client, action, version and time) is not copied again, so a second run changes nothing. Run it with the
/// service stopped: the target's replicas are not notified.
public enum StoreMigration {
    /// What a run did.
    public struct Report: Sendable, Equatable {
        public var clients = 0
        public var versions = 0
        public var versionsWritten = 0
        public var customizations = 0
        public var resetCustomizations = 0
        public var customizationsWritten = 0
        /// Customizations whose stored value could not be decoded: copied as reset (their revision kept).
        public var unreadable = 0
        /// Audit entries in the source.
        public var auditEntries = 0
        /// Audit entries written (those the target held already were not).
        public var auditEntriesWritten = 0
        /// Build manifests in the source.
        public var builds = 0
        /// Build manifests written (those the target held at the same or a newer revision were not).
        public var buildsWritten = 0
        /// Staged rollouts' states in the source.
        public var rollouts = 0
        /// Staged rollouts' states written (those of a tab the target held a state of were not).
        public var rolloutsWritten = 0
    }

    /// How far a run is: `done` of `total` items (versions, customizations and audit entries).
    public typealias Progress = @Sendable (_ done: Int, _ total: Int) -> Void

    /// The customizations (and audit entries) written per statement.
    static let batchSize = 2000

    /// Copies `source` into `target`, calling `progress` as it goes; then checks that the target holds as many
    /// versions per client, customizations and audit entries as the source (``MigrationError`` when not).
    public static func run(from source: FileStore, to target: PostgresStore, progress: Progress) throws -> Report {
        var report = Report()
        let (items, deleted) = source.log.contents()
        let clients = source.clientIDs()
        let versionCount = clients.reduce(0) { $0 + source.versionNumbers(client: $1).count }
        let entries = source.audit.all
        let total = versionCount + items.count + entries.count
        var done = 0
        progress(0, total)
        for client in clients {
            let versions = source.versionNumbers(client: client).compactMap { source.version(client: client, number: $0) }
            let highest = source.catalog.withLock { $0.highestNumber(client: client) } ?? 0
            report.versionsWritten += try target.importVersions(
                client: client, versions, lastVersion: max(highest, deleted[client] ?? 0))
            report.clients += 1
            report.versions += versions.count
            done += versions.count
            progress(done, total)
        }
        for (client, last) in deleted where !clients.contains(client) {
            _ = try target.importVersions(client: client, [], lastVersion: last)
        }
        var batch: [(CustomizationKey, CustomizationEntry)] = []
        batch.reserveCapacity(batchSize)
        for (key, item) in items {
            let value: StoredCustomization?
            switch item.slot {
            case .value(let stored):
                value = stored
                report.customizations += 1
            case .reset:
                value = nil
                report.resetCustomizations += 1
            case .corrupt:
                value = nil
                report.unreadable += 1
            }
            batch.append((key, CustomizationEntry(revision: item.revision, value: value)))
            if batch.count == batchSize {
                report.customizationsWritten += try target.importCustomizations(batch)
                done += batch.count
                progress(done, total)
                batch.removeAll(keepingCapacity: true)
            }
        }
        report.customizationsWritten += try target.importCustomizations(batch)
        done += batch.count
        progress(done, total)
        for start in stride(from: 0, to: entries.count, by: batchSize) {
            let part = entries[start..<min(start + batchSize, entries.count)]
            report.auditEntriesWritten += try target.importAudit(Array(part))
            report.auditEntries += part.count
            done += part.count
            progress(done, total)
        }
        let builds = source.buildTable.withLock { Array($0.builds.values) }
        report.builds = builds.count
        report.buildsWritten = try target.importBuilds(builds)
        let rollouts = source.rolloutTable.withLock { Array($0.states.values) }
        report.rollouts = rollouts.count
        for (client, states) in Dictionary(grouping: rollouts, by: \.client) {
            let held = Set(try target.currentRolloutStates(client: client).map(\.tab))
            for state in states where !held.contains(state.tab) {
                if try target.writeRolloutState(state, replacing: nil, audit: nil) != nil { report.rolloutsWritten += 1 }
            }
        }
        try verify(report, source: source, clients: clients, target: target)
        return report
    }

    private static func verify(_ report: Report, source: FileStore, clients: [String], target: PostgresStore) throws {
        let counts = try target.storedCounts()
        var problems: [String] = []
        for client in clients {
            let expected = source.versionNumbers(client: client).count
            let found = counts.versions[client] ?? 0
            if found != expected { problems.append("\(client): \(found) versions in the target, \(expected) in the source") }
        }
        if counts.customizations != report.customizations {
            problems.append(
                "\(counts.customizations) customizations in the target, \(report.customizations) in the source")
        }
        let builds = source.buildTable.withLock { Array($0.builds.values) }
        let missing = builds.filter { build in
            target.storedBuild(build.key).map { $0.revision < build.revision } ?? true
        }
        if !missing.isEmpty {
            problems.append("\(missing.count) build manifests of the source are not in the target")
        }
        let rollouts = source.rolloutTable.withLock { Array($0.states.values) }
        for (client, states) in Dictionary(grouping: rollouts, by: \.client) {
            let held = Set(try target.currentRolloutStates(client: client).map(\.tab))
            let lacking = states.filter { !held.contains($0.tab) }
            if !lacking.isEmpty { problems.append("\(client): \(lacking.count) rollout states are not in the target") }
        }
        if counts.auditEntries != report.auditEntries {
            problems.append("\(counts.auditEntries) audit entries in the target, \(report.auditEntries) in the source")
        }
        if !problems.isEmpty { throw MigrationError(problems: problems) }
    }
}

/// The target does not hold what the source does after a migration (it held other data before, say).
public struct MigrationError: Error, CustomStringConvertible {
    public var problems: [String]
    public var description: String { "the counts differ after the copy: " + problems.joined(separator: "; ") }
}
#endif
