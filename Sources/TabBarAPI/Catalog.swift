import Foundation
import Logging
import MicroHTTP
import Synchronization
import TabBarModel
import TabBarStore

/// The decoded live configs of every client and the encoded default tab bars, kept in front of the store.
///
/// Reads take a short lock on an in-memory dictionary; publishes and deletes are serialized so the store, the
/// cache and the event subscribers change together and in order.
final class Catalog: Sendable {
    private struct State {
        var live: [String: LiveConfig] = [:]
        var encoded: [String: EncodedTabBar] = [:]
        var prepared: [String: Response] = [:]

        /// Drops the cached encodings of every version of `client`.
        mutating func forgetEncodings(of client: String) {
            encoded = encoded.filter { !$0.key.hasPrefix(client + "\u{0}") }
            prepared = prepared.filter { !$0.key.hasPrefix(client + "\u{0}") }
        }
    }

    let store: any TabBarStore
    let events: EventHub
    private let state = Mutex(State())
    private let writeLock = Mutex(())
    private let logger: Logger

    init(store: any TabBarStore, events: EventHub, logger: Logger) throws {
        self.store = store
        self.events = events
        self.logger = logger
        var live: [String: LiveConfig] = [:]
        for client in store.clientIDs() {
            guard let stored = store.liveVersion(client: client) else { continue }
            switch TabBarConfig.decode(json: stored.document) {
            case .success(let config):
                live[client] = LiveConfig(stored: stored, config: config)
            case .failure(let error):
                throw CatalogError(
                    description: "stored config of client '\(client)' version \(stored.version) does not decode: \(error)")
            }
        }
        state.withLock { $0.live = live }
    }

    /// The live config of `client`, or `nil` if none is published.
    func live(_ client: String) -> LiveConfig? {
        state.withLock { $0.live[client] }
    }

    /// Every client with its live version, sorted by id.
    func clients() -> [LiveConfig] {
        state.withLock { state in state.live.keys.sorted().compactMap { state.live[$0] } }
    }

    /// The encoded default tab bar of `live` in `locale`, built on first use and then reused.
    func encodedDefault(_ live: LiveConfig, locale: String) -> Data {
        encodedTabBar(live, locale: locale).defaultBody
    }

    /// The whole `200` answer of the default tab bar of `live` in `locale` with `validators`' headers, prepared once
    /// and then sent as it is to every request.
    func preparedDefault(_ live: LiveConfig, locale: String, validators: CacheValidators) -> Response {
        let key = Self.cacheKey(live.stored.client, live.stored.version, locale)
            + (validators.variesByLanguage ? "\u{0}vary" : "")
        return cached(key, in: \.prepared, for: live) {
            let fresh = validators.decorate(.json(encoded: encodedDefault(live, locale: locale)))
            return Response(prepared: PreparedResponse(status: fresh.status, headers: fresh.headers, body: fresh.body))
        }
    }

    /// The encoded pieces of `live`'s tab bar in `locale`, built on first use and then reused.
    func encodedTabBar(_ live: LiveConfig, locale: String) -> EncodedTabBar {
        cached(Self.cacheKey(live.stored.client, live.stored.version, locale), in: \.encoded, for: live) {
            EncodedTabBar(live: live, locale: locale)
        }
    }

    /// The value under `key` in one of the caches, built outside the lock on first use and kept only while `live`
    /// is still its client's live version.
    private func cached<Value: Sendable>(
        _ key: String, in cache: WritableKeyPath<State, [String: Value]>, for live: LiveConfig, build: () -> Value
    ) -> Value {
        if let hit = state.withLock({ $0[keyPath: cache][key] }) {
            return hit
        }
        let value = build()
        state.withLock { state in
            guard state.live[live.stored.client]?.stored.version == live.stored.version else { return }
            state[keyPath: cache][key] = value
        }
        return value
    }

    /// Publishes `config` as the new live version of `client`; `expectedVersion` (0 = none yet) makes it conditional.
    func publish(
        client: String, config: TabBarConfig, note: String?, rollbackOf: Int? = nil, expectedVersion: Int? = nil
    ) throws -> LiveConfig {
        try writeLock.withLock { _ in
            let stored = try store.publish(
                client: client, document: config.encoded(), note: note, rollbackOf: rollbackOf,
                expectedVersion: expectedVersion)
            let live = LiveConfig(stored: stored, config: config)
            state.withLock { state in
                state.live[client] = live
                state.forgetEncodings(of: client)
            }
            logger.info("published config", metadata: ["client": "\(client)", "version": "\(stored.version)"])
            events.published(client: client, version: stored.version)
            return live
        }
    }

    /// Deletes `client` with all its versions and customizations; `false` if it did not exist.
    func delete(client: String) throws -> Bool {
        try writeLock.withLock { _ in
            let existed = try store.deleteClient(client)
            state.withLock { state in
                state.live[client] = nil
                state.forgetEncodings(of: client)
            }
            if existed {
                logger.info("deleted client", metadata: ["client": "\(client)"])
                events.deleted(client: client)
            }
            return existed
        }
    }

    private static func cacheKey(_ client: String, _ version: Int, _ locale: String) -> String {
        "\(client)\u{0}\(version)\u{0}\(locale)"
    }
}

/// The stored data cannot be served (a stored document no longer decodes).
struct CatalogError: Error, CustomStringConvertible {
    var description: String
}
