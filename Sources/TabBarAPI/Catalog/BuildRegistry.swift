import Synchronization
import TabBarModel
import TabBarStore

/// The registered build manifests the service resolves tab bars with (docs/design/model.md, "Build manifests"),
/// decoded once per registration: per client, by build. A client's are read from the store on first use and again
/// after each change, this replica's or another's. A client's entry is kept when it has manifests or is live (its
/// tab-bar requests ask on every request); asking about any other client id leaves nothing behind.
final class BuildRegistry: Sendable {
    /// One registered manifest, as stored and decoded.
    struct Registered: Sendable {
        let stored: StoredBuild
        let manifest: BuildManifest
    }

    private let store: any TabBarStore
    private let clients = Mutex<[String: [AppBuild: Registered]]>([:])

    init(store: any TabBarStore) {
        self.store = store
    }

    /// The manifest registered for the build a request names, nil when it names no build (no platform or app
    /// version, or malformed ones) or one without a manifest.
    func registered(client: String, platform: String?, appVersion: String?) -> Registered? {
        guard let platform, let appVersion else { return nil }
        let builds = self.builds(of: client, keepingNone: true)
        guard !builds.isEmpty, let build = AppBuild(platform: platform, appVersion: appVersion) else { return nil }
        return builds[build]
    }

    /// How many clients' manifests are kept.
    var clientCount: Int { clients.withLock { $0.count } }

    /// The client's manifests by build; with `keepingNone`, that it has none is kept too (a live client's).
    func builds(of client: String, keepingNone: Bool) -> [AppBuild: Registered] {
        if let loaded = clients.withLock({ $0[client] }) { return loaded }
        return reload(client, keepingNone: keepingNone)
    }

    /// Reads the client's manifests from the store again; returns them. None are kept only with `keepingNone` or
    /// when the client's were kept before.
    @discardableResult
    func reload(_ client: String, keepingNone: Bool = false) -> [AppBuild: Registered] {
        var builds: [AppBuild: Registered] = [:]
        for stored in store.builds(client: client) {
            guard let build = AppBuild(platform: stored.platform, appVersion: stored.appVersion),
                case .success(let manifest) = BuildManifest.decode(json: stored.document)
            else { continue }
            builds[build] = Registered(stored: stored, manifest: manifest)
        }
        clients.withLock { clients in
            if !builds.isEmpty || keepingNone || clients[client] != nil {
                clients[client] = builds
            }
        }
        return builds
    }
}
