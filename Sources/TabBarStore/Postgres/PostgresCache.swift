import Foundation

/// What a PostgreSQL store keeps in memory to serve reads without a round trip: every retained version of every
/// client and every customization, with the revisions of reset ones. Changes are applied after their transaction
/// committed, possibly out of order between threads: each apply keeps the newer of what it holds and what it is
/// given (versions and revisions only grow), so the cache ends where the database is.
struct PostgresCache: Sendable {
    /// A client's retained versions by number, and the highest number the client ever had deleted through.
    struct Client: Sendable {
        var versions: [Int: ConfigVersion] = [:]
        var deletedThrough = 0

        var live: ConfigVersion? {
            versions.keys.max().flatMap { versions[$0] }
        }
    }

    private(set) var clients: [String: Client] = [:]
    /// Customizations by key; a nil value is a reset one, kept for its revision.
    private(set) var customizations: [CustomizationKey: CustomizationEntry] = [:]
    /// How many customizations have a value.
    private(set) var customizationCount = 0
    /// Build manifests by client, platform and app version.
    private(set) var builds: [BuildKey: StoredBuild] = [:]
    /// Staged rollouts' states by client, each client's sorted by tab.
    private(set) var rollouts: [String: [RolloutState]] = [:]

    /// Change requests by client, each client's by id.
    private(set) var changes: [String: [ChangeRequest]] = [:]

    /// Replaces the client's change requests with `changes`, read from the database after its last change.
    mutating func setChanges(client: String, _ changes: [ChangeRequest]) {
        self.changes[client] = changes.isEmpty ? nil : changes.sorted { $0.id < $1.id }
    }

    /// Replaces the client's rollout states with `states`, read from the database after its last change.
    mutating func setRollouts(client: String, _ states: [RolloutState]) {
        rollouts[client] = states.isEmpty ? nil : states.sorted { $0.tab < $1.tab }
    }

    /// Records a registered manifest, unless the cache holds a newer one of the build.
    mutating func setBuild(_ build: StoredBuild) {
        if let current = builds[build.key], current.revision >= build.revision { return }
        builds[build.key] = build
    }

    /// Forgets a build's manifest if it is the one of `revision` or older (a newer registration stays).
    mutating func removeBuild(_ key: BuildKey, through revision: Int) {
        guard let current = builds[key], current.revision <= revision else { return }
        builds[key] = nil
    }

    /// Adds a published version (one the database committed), pruning versions at or below `prunedThrough`.
    mutating func addVersion(_ version: ConfigVersion, prunedThrough: Int) {
        var client = clients[version.client] ?? Client()
        guard version.version > client.deletedThrough else { return }
        client.versions[version.version] = version
        client.versions = client.versions.filter { $0.key > prunedThrough }
        clients[version.client] = client
    }

    /// Removes a client's versions numbered up to `lastVersion`, the newest it had when it was deleted.
    mutating func deleteClient(_ client: String, through lastVersion: Int) {
        var entry = clients[client] ?? Client()
        entry.deletedThrough = max(entry.deletedThrough, lastVersion)
        entry.versions = entry.versions.filter { $0.key > entry.deletedThrough }
        clients[client] = entry
    }

    /// Records a customization's state at `entry.revision` (a nil value: reset, or removed with its client), unless
    /// the cache already knows a newer one: a higher revision, or a removal at the same revision (removing a client's
    /// customizations keeps their revisions, and only that empties a revision).
    mutating func setCustomization(_ key: CustomizationKey, _ entry: CustomizationEntry) {
        let current = customizations[key]
        if let current {
            if current.revision > entry.revision { return }
            if current.revision == entry.revision, current.value == nil || entry.value != nil { return }
        }
        if current?.value != nil { customizationCount -= 1 }
        if entry.value != nil { customizationCount += 1 }
        customizations[key] = entry
    }

    /// A customization with a value.
    func customization(_ key: CustomizationKey) -> CustomizationEntry? {
        customizations[key].flatMap { $0.value == nil ? nil : $0 }
    }
}
