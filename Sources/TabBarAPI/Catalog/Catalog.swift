import Foundation
import Logging
import MicroHTTP
import Synchronization
import TabBarModel
import TabBarStore

/// The decoded live configs of every client, kept in front of the store (each with its encodings, see
/// ``VersionCache``).
///
/// Reads take a short lock on an in-memory dictionary; publishes and deletes are serialized so the store, the
/// cache and the event subscribers change together and in order.
final class Catalog: Sendable {
    let store: any TabBarStore
    let events: EventHub
    /// The registered build manifests, decoded.
    let builds: BuildRegistry
    private let configs = Mutex<[String: LiveConfig]>([:])
    private let writeLock = Mutex(())
    private let logger: Logger
    /// Where the live versions' encodings count their cache hits and misses.
    private let answerLookups: CacheLookups?

    init(store: any TabBarStore, events: EventHub, logger: Logger, answerLookups: CacheLookups? = nil) throws {
        self.answerLookups = answerLookups
        self.store = store
        self.events = events
        builds = BuildRegistry(store: store)
        self.logger = logger
        var live: [String: LiveConfig] = [:]
        for client in store.clientIDs() {
            guard let stored = store.liveVersion(client: client) else { continue }
            switch TabBarConfig.decode(json: stored.document) {
            case .success(let config):
                live[client] = LiveConfig(
                    stored: stored, config: config, rollouts: store.rolloutStates(client: client),
                    lookups: answerLookups)
            case .failure(let error):
                throw CatalogError(
                    description: "stored config of client '\(client)' version \(stored.version) does not decode: \(error)")
            }
        }
        configs.withLock { $0 = live }
        store.observeChanges { [weak self] change in self?.apply(change) }
    }

    /// Brings the catalog up to what the store holds after another replica's publish or delete, and tells the event
    /// subscribers; the same version again (this replica's own write) changes nothing.
    private func apply(_ change: StoreChange) {
        switch change {
        case .published(let client), .deleted(let client):
            refresh(client)
        case .reloaded:
            let known = configs.withLock { Set($0.keys) }
            for client in known.union(store.clientIDs()).sorted() { refresh(client) }
        case .builds(let client):
            builds.reload(client)
            events.buildsChanged(client: client)
        case .rollouts(let client):
            rolloutsChanged(client: client)
        case .changes:
            // Change requests are read from the store on each request; nothing is kept here.
            break
        }
    }

    private func refresh(_ client: String) {
        writeLock.withLock { _ in
            let current = configs.withLock { $0[client] }
            guard let stored = store.liveVersion(client: client) else {
                guard current != nil else { return }
                configs.withLock { $0[client] = nil }
                logger.info("client deleted on another replica", metadata: ["client": "\(client)"])
                events.deleted(client: client)
                return
            }
            guard stored.version != current?.stored.version else { return }
            switch TabBarConfig.decode(json: stored.document) {
            case .success(let config):
                let live = liveConfig(stored, config)
                configs.withLock { $0[client] = live }
                logger.info(
                    "config published on another replica", metadata: ["client": "\(client)", "version": "\(stored.version)"])
                events.published(live)
            case .failure(let error):
                logger.error(
                    "a config published on another replica does not decode; keeping the one served",
                    metadata: ["client": "\(client)", "version": "\(stored.version)", "error": "\(error)"])
            }
        }
    }

    /// The live config of `client`, or `nil` if none is published.
    func live(_ client: String) -> LiveConfig? {
        configs.withLock { $0[client] }
    }

    /// Every client with its live version, sorted by id.
    func clients() -> [LiveConfig] {
        configs.withLock { configs in configs.keys.sorted().compactMap { configs[$0] } }
    }

    /// Publishes `config` as the new live version of `client`; `expectedVersion` (0 = none yet) makes it conditional.
    /// With `audit`, the store writes the change's audit entry with it.
    func publish(
        client: String, config: TabBarConfig, note: String?, rollbackOf: Int? = nil, expectedVersion: Int? = nil,
        audit: AuditRecord? = nil
    ) throws -> LiveConfig {
        try writeLock.withLock { _ in
            let stored = try store.publish(
                client: client, document: config.encoded(), note: note, rollbackOf: rollbackOf,
                expectedVersion: expectedVersion, audit: audit)
            let live = liveConfig(stored, config)
            configs.withLock { $0[client] = live }
            logger.info("published config", metadata: ["client": "\(client)", "version": "\(stored.version)"])
            events.published(live)
            return live
        }
    }

    /// Publishes `config` as the first version of `client` if the store has never held a client (`TabBarStore.seed`),
    /// with an audit entry by `key`; nil when the store is not empty.
    func seed(client: String, config: TabBarConfig, note: String, key: String) throws -> LiveConfig? {
        try writeLock.withLock { _ in
            let audit = AuditRecord.publishing(config, action: .publish, live: nil, keyName: key, requestID: nil)
            guard let stored = try store.seed(client: client, document: config.encoded(), note: note, audit: audit) else {
                return nil
            }
            let live = liveConfig(stored, config)
            configs.withLock { $0[client] = live }
            events.published(live)
            return live
        }
    }

    /// Deletes `client` with all its versions and customizations; `false` if it did not exist. With `audit`, the
    /// store writes the change's audit entry with it.
    func delete(client: String, audit: AuditRecord? = nil) throws -> Bool {
        try writeLock.withLock { _ in
            let existed = try store.deleteClient(client, audit: audit)
            configs.withLock { $0[client] = nil }
            if existed {
                logger.info("deleted client", metadata: ["client": "\(client)"])
                events.deleted(client: client)
            }
            return existed
        }
    }

    /// The live config of `stored` (its document decoded as `config`) with the client's staged rollouts' states.
    private func liveConfig(_ stored: ConfigVersion, _ config: TabBarConfig) -> LiveConfig {
        LiveConfig(
            stored: stored, config: config, rollouts: store.rolloutStates(client: stored.client), lookups: answerLookups)
    }

    /// Brings `client`'s answers up to its staged rollouts' states as the store holds them: when a rollout of the live
    /// version stands elsewhere than the answers say (stage or phase; counts alone change nothing), the same version is
    /// served again with the new coverages (its tags name the outcomes, so a user whose bar did not change keeps their
    /// 304), and the event subscribers are told (`event: rollout`).
    func rolloutsChanged(client: String) {
        writeLock.withLock { _ in
            guard let current = configs.withLock({ $0[client] }) else { return }
            // Counts change every tick; the answers only when a rollout stands elsewhere: compared before anything
            // is built.
            var standings: [String: RolloutStanding] = [:]
            for state in store.rolloutStates(client: client)
            where current.stagedRollouts[state.tab]?.plan == state.plan {
                standings[state.tab] = state.standing
            }
            guard standings != current.rollouts.mapValues(\.standing) else { return }
            let live = liveConfig(current.stored, current.config)
            let changed = live.rollouts.filter { current.rollouts[$0.key]?.standing != $0.value.standing }
            configs.withLock { $0[client] = live }
            for (tab, state) in changed.sorted(by: { $0.key < $1.key }) {
                logger.info(
                    "staged rollout moved",
                    metadata: [
                        "client": "\(client)", "tab": "\(tab)", "stage": "\(state.stage)", "phase": "\(state.phase)",
                    ])
                events.rolloutChanged(live, tab: tab)
            }
        }
    }

    /// What the build a request's context names cannot open of `live`; nil when the context names no build with a
    /// registered manifest (the tab bar is then what targeting gives).
    func absence(_ live: LiveConfig, context: RequestContext) -> BuildAbsence? {
        builds.registered(client: live.stored.client, platform: context.platform, appVersion: context.appVersion)
            .map(live.absence)
    }

    /// The manifests registered for `client`, by build.
    func builds(of client: String) -> [AppBuild: BuildRegistry.Registered] {
        builds.builds(of: client, keepingNone: live(client) != nil)
    }

    /// What the client's registered builds cannot open of `config` (a publish's and a dry run's warnings).
    func buildCoverage(client: String, config: TabBarConfig) -> BuildCoverage {
        BuildCoverage(config: config, manifests: builds(of: client).mapValues(\.manifest))
    }

    /// Registers `document` (a valid manifest) for `build` of `client`, with the audit entry `audit` when it changes
    /// anything; tells the event subscribers when it did.
    func registerBuild(
        client: String, build: AppBuild, document: Data, audit: AuditRecord?
    ) throws -> (build: StoredBuild, change: BuildChange) {
        try writeLock.withLock { _ in
            let registered = try store.registerBuild(
                client: client, platform: build.platform, appVersion: build.appVersion, document: document,
                audit: audit)
            if registered.change != .unchanged {
                builds.reload(client)
                logger.info(
                    "registered a build manifest",
                    metadata: ["client": "\(client)", "build": "\(build)", "revision": "\(registered.build.revision)"])
                events.buildsChanged(client: client)
            }
            return registered
        }
    }

    /// Removes the manifest of `build` of `client`, with the audit entry `audit`; false when there was none.
    func deleteBuild(client: String, build: AppBuild, audit: AuditRecord?) throws -> Bool {
        try writeLock.withLock { _ in
            guard
                try store.deleteBuild(
                    client: client, platform: build.platform, appVersion: build.appVersion, audit: audit)
            else { return false }
            builds.reload(client)
            logger.info("removed a build manifest", metadata: ["client": "\(client)", "build": "\(build)"])
            events.buildsChanged(client: client)
            return true
        }
    }
}

/// The stored data cannot be served (a stored document no longer decodes).
struct CatalogError: Error, CustomStringConvertible {
    var description: String
}
