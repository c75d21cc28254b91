import Foundation

/// Durable storage of published config versions and users' customizations.
///
/// Every write method returns only after the write is durable. Reads are served from memory.
/// Implementations are safe to call from many threads at once.
///
/// Numbers are never reused within one store: a client's version numbers and a user's customization revisions keep
/// counting across `deleteClient`, so a version number or a revision (an HTTP ETag) never names two contents.
public protocol TabBarStore: AnyObject, Sendable {
    /// nil when healthy; a reason when the store refuses writes (fsync failed, closed, ...).
    var unavailableReason: String? { get }
    /// Every client with at least one published version, sorted.
    func clientIDs() -> [String]
    /// The newest version of the client, from memory.
    func liveVersion(client: String) -> ConfigVersion?
    /// One retained version of the client, or nil if it does not exist or was pruned.
    func version(client: String, number: Int) -> ConfigVersion?
    /// The client's retained version numbers, ascending.
    func versionNumbers(client: String) -> [Int]
    /// The client's retained versions without their documents, newest first, from memory.
    func versionHistory(client: String) -> [ConfigVersionInfo]
    /// Publishes a new version, numbered one past the client's newest version ever (1 for a new client; after
    /// `deleteClient`, numbering continues). If `expectedVersion` is non-nil and differs from the live version number
    /// (0 when the client has none), throws `StoreError.revisionMismatch` and writes nothing; the check and the write
    /// are atomic with respect to other publishes. Older versions beyond the retention limit are pruned afterwards;
    /// the live version never is. Durable before returning.
    ///
    /// With `audit`, the publish and its audit entry are one durable change: the entry (its summary from
    /// `audit.summarize`, called with the version live before) is written with the version, and neither is without
    /// the other, also across a crash. A publish that throws writes no entry.
    func publish(
        client: String, document: Data, note: String?, rollbackOf: Int?, expectedVersion: Int?, audit: AuditRecord?
    ) throws -> ConfigVersion
    /// Publishes `document` as `client`'s first version if the store has never held a client: no client has or had
    /// a version (a deleted client counts) and the audit log is empty. The check and the publish are one step
    /// against every other writer, in this process and in others sharing the store, so of processes seeding
    /// together exactly one writes, and none writes after a publish. Returns nil, having written nothing, when the
    /// store is not empty; otherwise as `publish` with no expected version, `audit` included.
    func seed(client: String, document: Data, note: String?, audit: AuditRecord?) throws -> ConfigVersion?
    /// Deletes every version of the client and every customization of that client. Numbering is not reset: a later
    /// publish continues after the client's last version number and each user's revisions continue after their last
    /// revision. Returns false if the client did not exist. Durable before returning.
    ///
    /// With `audit`, a delete that returns true (the client had a live version) writes its audit entry with the
    /// change, `audit.summarize` called with the live version; one that returns false or throws writes none.
    func deleteClient(_ client: String, audit: AuditRecord?) throws -> Bool
    /// The audit entries `query` selects, oldest first (ascending sequence). Only changes made with an `AuditRecord`
    /// have entries. May read from where the store keeps them (the database: throws `StoreError.unavailable` when it
    /// cannot be reached), so callers run it off request threads.
    func auditEntries(_ query: AuditQuery) throws -> [AuditEntry]
    /// The stored customization, from memory; nil when never saved (or reset).
    func customization(client: String, user: String) -> CustomizationEntry?
    /// Stores a customization with revision = previous + 1 (previous is 0 when none; a reset or a deleted client
    /// counts and does not restart the numbering). If `expectedRevision` is non-nil and differs from the current
    /// revision (0 when none or reset), throws `StoreError.revisionMismatch` and writes nothing; the check and the
    /// write are atomic with respect to every other writer of the key, including writes not yet durable. Durable
    /// (group-committed) before returning.
    func saveCustomization(
        client: String, user: String, _ value: StoredCustomization, expectedRevision: UInt64?
    ) throws -> CustomizationEntry
    /// `saveCustomization` that reports through `completion` instead of returning, so that the caller's thread is
    /// not held while the write waits for durability. `completion` is called exactly once, from any thread, and must
    /// not block.
    func saveCustomization(
        client: String, user: String, _ value: StoredCustomization, expectedRevision: UInt64?,
        completion: @escaping @Sendable (Result<CustomizationEntry, any Error>) -> Void
    )
    /// Removes the customization (taking the next revision, which the key keeps counting from); returns whether
    /// one existed. Durable before returning.
    func deleteCustomization(client: String, user: String) throws -> Bool
    /// The client's registered build manifests, sorted by platform and app version, from memory.
    func builds(client: String) -> [StoredBuild]
    /// The manifest registered for one build of the client, from memory; nil when none is.
    func build(client: String, platform: String, appVersion: String) -> StoredBuild?
    /// Registers `document` as the manifest of a build of `client` (`platform` and `appVersion` as the caller
    /// checked and canonicalized them), replacing one registered before. A document equal to the registered one
    /// writes nothing (``BuildChange/unchanged``, the stored build returned). Manifests stay when their client is
    /// deleted: the builds are still in users' hands. With `audit`, a change is written with its audit entry
    /// (``AuditAction/registerBuild``). Durable before returning.
    func registerBuild(
        client: String, platform: String, appVersion: String, document: Data, audit: AuditRecord?
    ) throws -> (build: StoredBuild, change: BuildChange)
    /// Removes a build's manifest; returns whether there was one. With `audit`, the removal is written with its audit
    /// entry (``AuditAction/removeBuild``). Durable before returning.
    func deleteBuild(client: String, platform: String, appVersion: String, audit: AuditRecord?) throws -> Bool
    /// The client's staged rollouts' states, sorted by tab, from memory.
    func rolloutStates(client: String) -> [RolloutState]
    /// The client's staged rollouts' states as the store holds them now: what a decision on them is made from. From
    /// memory on a store of its own; read from where the store keeps them on a shared one (throws
    /// `StoreError.unavailable` when it cannot be reached), so callers run it off request threads.
    func currentRolloutStates(client: String) throws -> [RolloutState]
    /// Writes `state` (its client and tab) in place of `expected`, the state it was decided from (nil: there was
    /// none), when the store still holds `expected`: the same revision and counts (``RolloutState/isUnchanged``).
    /// Returns the state written, with the store's next revision, the time and its stage start to the millisecond;
    /// nil when another process changed it first (nothing written). With `audit`, its entry (``AuditRecord/rollout`` with the revision) is written with it.
    /// Durable before returning.
    func writeRolloutState(_ state: RolloutState, replacing expected: RolloutState?, audit: AuditRecord?) throws
        -> RolloutState?
    /// Removes the client's rollout states whose tab is not in `keeping` (a tab, or its plan, left the document).
    /// Durable before returning.
    func removeRolloutStates(client: String, keeping: Set<String>) throws
    /// Adds opens and failures to the state of `tab` when it still follows `plan` at `stage` and runs: the counts of
    /// every process add up. Returns the state after; nil, adding nothing, when it does not stand there. Durable
    /// before returning.
    func addRolloutCounts(client: String, tab: String, plan: String, stage: Int, opened: Int, failed: Int) throws
        -> RolloutState?
    /// The change requests of `client` (of every client when nil), by id, from memory.
    func changes(client: String?) -> [ChangeRequest]
    /// Opens `change` (its client, author, base version, document, note and time): it gets the store's next id,
    /// revision 1, state `open` and the time now. With `audit`, its entry (``AuditRecord/change``) is written with
    /// it. Durable before returning.
    func openChange(_ change: ChangeRequest, audit: AuditRecord?) throws -> ChangeRequest
    /// Writes `change` (found by its id) as its next revision, when the store holds it at `expectedRevision`;
    /// returns what was written, nil (nothing written) when the store holds another revision or no such change.
    /// With `audit`, its entry is written with it. Durable before returning.
    func writeChange(_ change: ChangeRequest, expectedRevision: Int, audit: AuditRecord?) throws -> ChangeRequest?
    /// Number of stored customizations (for logs and metrics).
    var customizationCount: Int { get }
    /// Bytes of the customizations journal, for a store that keeps one (the file store); else nil.
    var journalBytes: Int? { get }
    /// Flushes and closes; later writes throw `StoreError.unavailable`.
    func close()
    /// Calls `observer` with each change made by another process, once the store's reads show it (only a shared
    /// store has such changes). One observer; a second call replaces it.
    func observeChanges(_ observer: @escaping @Sendable (StoreChange) -> Void)
    /// Whether other processes write to the store too, so that its reads can lag their writes for a moment.
    var isShared: Bool { get }
    /// Reads `client`'s versions and, given `user`, that user's customization from where the store keeps them into
    /// what its reads serve: for a request naming a version or a revision newer than the reads show (another
    /// process's write not yet applied here). The observer hears of a newer version before `completion` is called,
    /// once, from any thread, with whether the store was read: a failed read changes nothing and passes `false`. A
    /// store that is not shared calls `completion(true)` at once.
    func readThrough(client: String, user: String?, completion: @escaping @Sendable (_ read: Bool) -> Void)
}

extension TabBarStore {
    /// A store only this process writes to has no changes from elsewhere.
    public func observeChanges(_ observer: @escaping @Sendable (StoreChange) -> Void) {}

    public var isShared: Bool { false }

    /// Its reads are always current: nothing to read.
    public func readThrough(client: String, user: String?, completion: @escaping @Sendable (_ read: Bool) -> Void) {
        completion(true)
    }
}

extension TabBarStore {
    /// Deletes a client without an audit entry: `deleteClient(_:audit:)` with none.
    public func deleteClient(_ client: String) throws -> Bool {
        try deleteClient(client, audit: nil)
    }

    /// Registers a build manifest without an audit entry (copies between stores, tests).
    public func registerBuild(
        client: String, platform: String, appVersion: String, document: Data
    ) throws -> (build: StoredBuild, change: BuildChange) {
        try registerBuild(client: client, platform: platform, appVersion: appVersion, document: document, audit: nil)
    }

    /// Removes a build manifest without an audit entry.
    public func deleteBuild(client: String, platform: String, appVersion: String) throws -> Bool {
        try deleteBuild(client: client, platform: platform, appVersion: appVersion, audit: nil)
    }
}

extension TabBarStore {
    /// Runs the blocking `saveCustomization` and reports its outcome, for stores without an asynchronous path.
    public func saveCustomization(
        client: String, user: String, _ value: StoredCustomization, expectedRevision: UInt64?,
        completion: @escaping @Sendable (Result<CustomizationEntry, any Error>) -> Void
    ) {
        completion(Result { try saveCustomization(client: client, user: user, value, expectedRevision: expectedRevision) })
    }
}

extension TabBarStore {
    /// Publishes a new version unconditionally: `publish(client:document:note:rollbackOf:expectedVersion:audit:)` with
    /// no expected version and no audit entry.
    public func publish(client: String, document: Data, note: String?, rollbackOf: Int?) throws -> ConfigVersion {
        try publish(client: client, document: document, note: note, rollbackOf: rollbackOf, expectedVersion: nil)
    }

    /// Publishes a new version without an audit entry (the seed of the sample config, offline imports, tests).
    public func publish(
        client: String, document: Data, note: String?, rollbackOf: Int?, expectedVersion: Int?
    ) throws -> ConfigVersion {
        try publish(
            client: client, document: document, note: note, rollbackOf: rollbackOf, expectedVersion: expectedVersion,
            audit: nil)
    }
}

/// A change a store learned of from outside this process: another replica's write to a shared database.
public enum StoreChange: Sendable, Equatable {
    /// The client's live version changed (a publish or a rollback).
    case published(client: String)
    /// The client was deleted.
    case deleted(client: String)
    /// A build manifest of the client was registered, replaced or removed.
    case builds(client: String)
    /// A staged rollout's state of the client was written or removed.
    case rollouts(client: String)
    /// A change request of the client was opened or written.
    case changes(client: String)
    /// The store re-read everything (after losing its connection for notices): any client may have changed.
    case reloaded
}
