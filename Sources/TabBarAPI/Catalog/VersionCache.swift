import Foundation
import MicroHTTP
import Synchronization

/// What is built from one live version on first use and reused while the version is live: the encoded tab bar per
/// locale and targeting outcome, the prepared default answers (with their compressed forms) and the OFREP bulk
/// answers. It belongs to the ``LiveConfig`` holding it, so a publish or delete, which replaces that value, drops it
/// with the version.
///
/// Each kind keeps at most ``maximumEntries``: the outcomes of a config are bounded by its rules, but a config with
/// many independent rules has many; past the bound, answers are built for the request and not kept. The bulk
/// answers are keyed by user and revision too, so their keys go stale as users save: a full bulk cache (by entries
/// or by ``maximumFlagAnswerBytes``) drops some to make room (``BoundedCache``); an answer over a tenth of the bytes
/// is not kept.
final class VersionCache: Sendable {
    /// The most entries of each kind kept.
    static let maximumEntries = 4096
    /// The most bytes of bulk answers kept.
    static let maximumFlagAnswerBytes = 8 << 20

    private struct TabBarKey: Hashable {
        var locale: String
        var outcome: String
    }

    private struct AnswerKey: Hashable {
        var locale: String
        var outcome: String
        var variesByLanguage: Bool
    }

    private let tabBars = Mutex<[TabBarKey: EncodedTabBar]>([:])
    private let answers = Mutex<[AnswerKey: PreparedAnswer]>([:])
    private let config = Mutex<PreparedAnswer?>(nil)
    private let flagAnswers = Mutex(
        BoundedCache<Data>(capacity: VersionCache.maximumEntries, byteCapacity: VersionCache.maximumFlagAnswerBytes))
    /// Where hits and misses are counted.
    private let lookups: CacheLookups?

    init(lookups: CacheLookups?) {
        self.lookups = lookups
    }

    /// The encoded tab bar in `locale` for the outcome keyed `outcome`; `build` makes it, outside the lock, the first
    /// time.
    func tabBar(locale: String, outcome: String, build: () -> EncodedTabBar) -> EncodedTabBar {
        cached(TabBarKey(locale: locale, outcome: outcome), in: tabBars, build: build)
    }

    /// The default answer (in its content codings) in `locale` for the outcome keyed `outcome`, with or without
    /// `Vary: Accept-Language`; `build` makes it the first time.
    func defaultAnswer(
        locale: String, outcome: String, variesByLanguage: Bool, build: () -> PreparedAnswer
    ) -> PreparedAnswer {
        cached(
            AnswerKey(locale: locale, outcome: outcome, variesByLanguage: variesByLanguage), in: answers, build: build)
    }

    /// The version's source document answer (`GET …/config`); `build` makes it the first time.
    func configAnswer(build: () -> PreparedAnswer) -> PreparedAnswer {
        if let made = config.withLock({ $0 }) { return made }
        let answer = build()
        return config.withLock { made in
            if let made { return made }
            made = answer
            return answer
        }
    }

    /// The OFREP bulk answer of the outcome tagged `tag` (the bulk's own tag: locale, outcome, and the user and their
    /// revision for a user's bar); `build` makes it on a miss.
    func flagAnswer(tag: String, build: () -> Data) -> Data {
        if let hit = flagAnswers.withLock({ $0[tag] }) {
            lookups?.record(hit: true)
            return hit
        }
        lookups?.record(hit: false)
        let answer = build()
        let size = answer.count + tag.utf8.count
        if size <= Self.maximumFlagAnswerBytes / 10 {
            flagAnswers.withLock { $0.insert(answer, for: tag, size: size) }
        }
        return answer
    }

    private func cached<Key: Hashable & Sendable, Value: Sendable>(
        _ key: Key, in cache: borrowing Mutex<[Key: Value]>, build: () -> Value
    ) -> Value {
        if let hit = cache.withLock({ $0[key] }) {
            lookups?.record(hit: true)
            return hit
        }
        lookups?.record(hit: false)
        let value = build()
        return cache.withLock { entries in
            if let first = entries[key] { return first }
            if entries.count < Self.maximumEntries {
                entries[key] = value
            }
            return value
        }
    }
}
