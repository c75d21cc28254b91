import Foundation
import JWTKit
import TabBarAPI
import TabConfigClient

/// The claims of a user token the service accepts.
private struct UserClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Configs, clients and tokens the client's tests share.
enum ClientFixtures {
    /// A top-level tab with a view controller destination; `library` and `settings` may be hidden.
    static func tab(_ id: String) -> [String: Any] {
        tab(id, hideable: ["library", "settings"].contains(id))
    }

    /// A top-level tab with a view controller destination, locked and hideable as given.
    static func tab(_ id: String, locked: Bool = false, hideable: Bool) -> [String: Any] {
        [
            "id": id, "title": ["default": id.capitalized], "icon": ["image": "\(id).png"],
            "destination": ["type": "viewController", "name": "\(id.capitalized)ViewController"],
            "locked": locked, "hideable": hideable,
        ]
    }

    /// A customizable config of `ids`, five visible.
    static func config(_ ids: [String], maxVisibleTabs: Int = 5) -> [String: Any] {
        ["tabs": ids.map(tab), "maxVisibleTabs": maxVisibleTabs, "userCustomizable": true, "defaultLocale": "en"]
    }

    /// The six tabs most tests publish.
    static let ids = ["home", "search", "library", "favorites", "profile", "settings"]

    /// A storage directory of its own under `directory`.
    static func storage(_ directory: URL, _ name: String = "app") -> URL {
        directory.appendingPathComponent("client-\(name)", isDirectory: true)
    }

    /// A client configuration for `server`'s `client`, quick to retry.
    static func configuration(
        _ baseURL: URL, client: String = "app", user: TabBarClient.User? = nil, storage: URL,
        bundled: TabBar? = nil, tokens: TabBarClient.TokenProvider? = nil, refresh: Duration? = nil
    ) -> TabBarClient.Configuration {
        TabBarClient.Configuration(
            baseURL: baseURL, client: client, user: user, context: TabBarContext(platform: "ios", appVersion: "5.2.0"),
            storageDirectory: storage, bundledDefault: bundled, tokenProvider: tokens,
            retryPolicy: TabBarClient.RetryPolicy(
                baseDelay: .milliseconds(50), maxDelay: .milliseconds(500), maxSaveAttempts: 5),
            refreshInterval: refresh, requestTimeout: .seconds(10))
    }

    /// An HS256 token for `user` with `secret` (by default ``ClientTestServer/hs256Secret``, which the service
    /// accepts), valid for an hour.
    static func token(for user: String, secret: String = ClientTestServer.hs256Secret) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return try await keys.sign(
            UserClaims(sub: SubjectClaim(value: user), exp: ExpirationClaim(value: Date().addingTimeInterval(3600))))
    }

    /// A bundled default of two tabs.
    static var bundled: TabBar {
        TabBar(
            client: "app", version: 0, locale: "en", maxVisibleTabs: 5, initialTab: "home",
            tabs: ["home", "search"].map {
                TabBar.Tab(
                    id: $0, title: $0.capitalized, destination: TabBar.Destination(type: .viewController, name: $0),
                    placement: .bar)
            })
    }
}

extension ClientTestServer {
    /// A server with the six tabs of ``ClientFixtures/ids`` published as client `app`.
    static func published(
        configure: (inout ApplicationConfiguration) -> Void = { _ in }
    ) async throws -> ClientTestServer {
        let server = try ClientTestServer(configure: configure)
        do {
            try await server.publish("app", ClientFixtures.config(ClientFixtures.ids))
        } catch {
            server.close()
            throw error
        }
        return server
    }

    /// The configuration of a client of `app` on this server whose storage directory, named `name`, is in the
    /// server's temporary directory.
    func configuration(
        user: TabBarClient.User? = nil, name: String = "app", bundled: TabBar? = nil,
        tokens: TabBarClient.TokenProvider? = nil, refresh: Duration? = nil
    ) -> TabBarClient.Configuration {
        ClientFixtures.configuration(
            baseURL, user: user, storage: ClientFixtures.storage(dataDirectory.url, name), bundled: bundled,
            tokens: tokens, refresh: refresh)
    }

    /// A client of `app` on this server (see ``configuration(user:name:bundled:tokens:refresh:)``).
    func client(
        user: TabBarClient.User? = nil, name: String = "app", bundled: TabBar? = nil,
        tokens: TabBarClient.TokenProvider? = nil, refresh: Duration? = nil
    ) -> TabBarClient {
        TabBarClient(
            configuration: configuration(user: user, name: name, bundled: bundled, tokens: tokens, refresh: refresh))
    }
}

extension TabBarClient {
    /// The first delivery that satisfies `condition`, waiting at most `seconds`; nil when none came.
    func delivery(
        within seconds: Int = 20, where condition: @escaping @Sendable (TabBarDelivery) -> Bool
    ) async -> TabBarDelivery? {
        await firstValue(of: updates, within: seconds, where: condition)
    }

    /// The first status that satisfies `condition`, waiting at most `seconds`; nil when none came.
    func status(
        within seconds: Int = 20, where condition: @escaping @Sendable (Status) -> Bool
    ) async -> Status? {
        await firstValue(of: statusUpdates, within: seconds, where: condition)
    }
}

/// The first element of `stream` that satisfies `condition` within `seconds`, or nil.
func firstValue<Value: Sendable>(
    of stream: AsyncStream<Value>, within seconds: Int, where condition: @escaping @Sendable (Value) -> Bool
) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask {
            for await value in stream where condition(value) { return value }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass; returns whether it held. For what the client or
/// the server does in its own time: tests assert that it happens, never how long it took.
func waitUntil(
    within seconds: Int = 20, isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

extension TabBar {
    /// The tab ids in the bar, then `|` and those under "More", joined by spaces: `t0 t1|t2`.
    var layout: String {
        let bar = tabs.filter { $0.placement == .bar }.map(\.id).joined(separator: " ")
        let more = tabs.filter { $0.placement == .more }.map(\.id).joined(separator: " ")
        return "\(bar)|\(more)"
    }
}
