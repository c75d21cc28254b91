import Foundation
import MicroHTTP
import Synchronization
import Testing

@testable import TabBarAPI

/// The answers a version keeps (``VersionCache``): the OFREP bulk answers built once per tag, the default answers made
/// fast and then at best, each kind bounded by entries and by bytes, making room when full rather than keeping only the
/// first answers.
@Suite("answers kept per version")
struct VersionCacheTests {
    /// Asks for each tag in `tags`, answering `size` bytes; returns how many were built.
    static func ask(_ cache: VersionCache, _ tags: some Sequence<String>, size: Int = 16) -> Int {
        var built = 0
        for tag in tags {
            _ = cache.flagAnswer(tag: tag) {
                built += 1
                return Data(repeating: UInt8(ascii: "x"), count: size)
            }
        }
        return built
    }

    @Test("a tag's answer is built once")
    func builtOnce() {
        let cache = VersionCache(lookups: nil)
        let tags = (0..<100).map { "\"ot1-en-alice-\($0)\"" }
        #expect(Self.ask(cache, tags) == 100)
        #expect(Self.ask(cache, tags) == 0)
    }

    @Test("past maximumEntries, a tenth is dropped and new tags are still kept")
    func entryBound() {
        let cache = VersionCache(lookups: nil)
        let count = VersionCache.maximumEntries
        #expect(Self.ask(cache, (0..<count).map { "a\($0)" }) == count)
        #expect(Self.ask(cache, ["b"]) == 1)
        #expect(Self.ask(cache, ["b"]) == 0, "the newest answer is kept")
        let rebuilt = Self.ask(cache, (0..<count).map { "a\($0)" })
        #expect(rebuilt >= count / 10)
        #expect(rebuilt < count, "the rest is kept")
    }

    @Test("past maximumFlagAnswerBytes, room is made; an answer over a tenth of it is never kept")
    func byteBound() {
        let cache = VersionCache(lookups: nil)
        let size = VersionCache.maximumFlagAnswerBytes / 20
        let tags = (0..<30).map { "big\($0)" }
        #expect(Self.ask(cache, tags, size: size) == 30)
        #expect(Self.ask(cache, ["big29"], size: size) == 0, "the newest answer is kept")
        #expect(Self.ask(cache, tags, size: size) >= 10, "30 answers of a twentieth do not all fit")
        let huge = VersionCache.maximumFlagAnswerBytes / 10 + 1
        #expect(Self.ask(cache, ["huge"], size: huge) == 1)
        #expect(Self.ask(cache, ["huge"], size: huge) == 1)
    }

    /// A default answer of `size` bytes of JSON, made at `effort`.
    static func answer(_ effort: Compression.Effort, size: Int = 2_000) -> PreparedAnswer {
        PreparedAnswer(
            validators: CacheValidators(etag: "\"t1-en\"", cacheControl: "no-cache", variesByLanguage: false),
            body: Data(String(repeating: "{\"id\":\"home\"},", count: size / 14).utf8), effort: effort)
    }

    @Test("default answers: made fast on a miss, at best once on the second use, bounded, the newest kept")
    func defaultAnswers() {
        let compressor = AnswerCompressor()
        let cache = VersionCache(lookups: nil, compressor: compressor)
        let efforts = Mutex<[Compression.Effort]>([])
        func ask(_ outcome: String) -> PreparedAnswer {
            cache.defaultAnswer(locale: "en", outcome: outcome, variesByLanguage: false) {
                efforts.withLock { $0.append(.fast) }
                return Self.answer(.fast)
            }
        }
        #expect(ask(".a").effort == .fast)
        #expect(ask(".a").effort == .fast, "the second use is answered with what is kept")
        compressor.drain()
        #expect(ask(".a").effort == .best, "made again at the best effort and kept in its place")
        _ = ask(".a")
        compressor.drain()
        #expect(efforts.withLock { $0 } == [.fast], "built once; the compressor remade it")

        for index in 0..<(VersionCache.maximumEntries + 500) {
            _ = ask(".o\(index)")
        }
        #expect(cache.counts.answers <= VersionCache.maximumEntries)
        compressor.drain()
        #expect(compressor.jobsRun == 1, "outcomes asked for once are not made at the best effort")
        let before = efforts.withLock { $0.count }
        _ = ask(".new")
        _ = ask(".new")
        #expect(efforts.withLock { $0.count } == before + 1, "a new outcome is kept")
    }
}
