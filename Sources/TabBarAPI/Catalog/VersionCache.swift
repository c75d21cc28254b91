import Foundation
import MicroHTTP
import Synchronization

/// What is built from one live version on first use and reused while the version is live: the encoded tab bar per
/// locale and targeting outcome, the prepared default answers (with their compressed forms) and the OFREP bulk
/// answers. It belongs to the ``LiveConfig`` holding it, so a publish or delete, which replaces that value, drops it
/// with the version.
///
/// Each kind keeps at most ``maximumEntries`` and a number of bytes (``BoundedCache``): the outcomes of a config are
/// bounded by its rules, but a config with many independent rules has many, and anyone can ask for them; a full cache
/// drops some to make room, so the answers asked for now are the ones kept. The bulk answers are keyed by user and
/// revision too, so their keys go stale as users save. An entry over a tenth of its kind's bytes is not kept.
///
/// A default answer missing from the cache is compressed at the fast effort on the request's thread; when it is
/// asked for again it is made at the best effort by the ``AnswerCompressor`` and put in the place of the fast one.
/// An outcome asked for once, as by a flood of made-up outcomes, costs its request a fast compression and nothing more.
final class VersionCache: Sendable {
    /// The most entries of each kind kept.
    static let maximumEntries = 4096
    /// The most bytes of encoded tab bars kept.
    static let maximumTabBarBytes = 16 << 20
    /// The most bytes of default answers (in every coding) kept.
    static let maximumAnswerBytes = 16 << 20
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

    private let tabBars = Mutex(
        BoundedCache<TabBarKey, EncodedTabBar>(
            capacity: VersionCache.maximumEntries, byteCapacity: VersionCache.maximumTabBarBytes))
    private let answers = Mutex(
        BoundedCache<AnswerKey, PreparedAnswer>(
            capacity: VersionCache.maximumEntries, byteCapacity: VersionCache.maximumAnswerBytes))
    private let config = Mutex<PreparedAnswer?>(nil)
    private let flagAnswers = Mutex(
        BoundedCache<String, Data>(
            capacity: VersionCache.maximumEntries, byteCapacity: VersionCache.maximumFlagAnswerBytes))
    /// Where hits and misses are counted.
    private let lookups: CacheLookups?
    private let compressor: AnswerCompressor

    init(lookups: CacheLookups?, compressor: AnswerCompressor = .shared) {
        self.lookups = lookups
        self.compressor = compressor
    }

    /// How many encoded tab bars and default answers are kept.
    var counts: (tabBars: Int, answers: Int) {
        (tabBars.withLock { $0.count }, answers.withLock { $0.count })
    }

    /// The encoded tab bar in `locale` for the outcome keyed `outcome`; `build` makes it, outside the lock, the first
    /// time.
    func tabBar(locale: String, outcome: String, build: () -> EncodedTabBar) -> EncodedTabBar {
        cached(TabBarKey(locale: locale, outcome: outcome), in: tabBars, size: \.byteCount, build: build)
    }

    /// The default answer (in its content codings) in `locale` for the outcome keyed `outcome`, with or without
    /// `Vary: Accept-Language`; `build` makes it, at the fast effort, the first time. When it is asked for again, the
    /// ``AnswerCompressor`` makes it at the best effort and puts that in its place.
    func defaultAnswer(
        locale: String, outcome: String, variesByLanguage: Bool, build: () -> PreparedAnswer
    ) -> PreparedAnswer {
        let key = AnswerKey(locale: locale, outcome: outcome, variesByLanguage: variesByLanguage)
        let answer = cached(key, in: answers, size: \.byteCount, build: build)
        if answer.claimUpgrade() {
            upgrade(answer) { [self] best in
                answers.withLock { cache in
                    if cache[key] === answer {
                        cache.replace(best, for: key, size: best.byteCount)
                    }
                }
            }
        }
        return answer
    }

    /// The version's source document answer (`GET …/config`); `build` makes it the first time, as for
    /// ``defaultAnswer(locale:outcome:variesByLanguage:build:)``.
    func configAnswer(build: () -> PreparedAnswer) -> PreparedAnswer {
        let answer =
            config.withLock({ $0 })
            ?? config.withLock { made in
                let fresh = made ?? build()
                made = fresh
                return fresh
            }
        if answer.claimUpgrade() {
            upgrade(answer) { [self] best in
                config.withLock { made in
                    if made === answer { made = best }
                }
            }
        }
        return answer
    }

    /// The OFREP bulk answer of the outcome tagged `tag` (the bulk's own tag: locale, outcome, and the user and their
    /// revision for a user's bar); `build` makes it on a miss.
    func flagAnswer(tag: String, build: () -> Data) -> Data {
        cached(tag, in: flagAnswers, size: { $0.count + tag.utf8.count }, build: build)
    }

    /// Has the ``AnswerCompressor`` make `answer` again at the best effort and hand that to `replace`; when it
    /// refuses, a later use of `answer` may ask again.
    private func upgrade(_ answer: PreparedAnswer, replace: @escaping @Sendable (PreparedAnswer) -> Void) {
        if !compressor.submit({ replace(answer.remade(at: .best)) }) {
            answer.releaseUpgrade()
        }
    }

    /// The value kept under `key` in `cache`, or the one `build` makes and keeps (when `size` of it is at most a tenth
    /// of the cache's bytes).
    private func cached<Key: Hashable & Sendable, Value: Sendable>(
        _ key: Key, in cache: borrowing Mutex<BoundedCache<Key, Value>>, size: (Value) -> Int, build: () -> Value
    ) -> Value {
        if let hit = cache.withLock({ $0[key] }) {
            lookups?.record(hit: true)
            return hit
        }
        lookups?.record(hit: false)
        let value = build()
        let bytes = size(value)
        return cache.withLock { entries in
            if let first = entries[key] { return first }
            if bytes <= entries.byteCapacity / 10 {
                entries.insert(value, for: key, size: bytes)
            }
            return value
        }
    }
}
