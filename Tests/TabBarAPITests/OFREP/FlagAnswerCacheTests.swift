import Foundation
import Testing

@testable import TabBarAPI

/// The bulk answers a version keeps (``VersionCache/flagAnswer(tag:build:)``): built once per tag, and bounded by
/// entries and by bytes, making room when full rather than keeping only the first answers.
@Suite("OFREP bulk answers kept per version")
struct FlagAnswerCacheTests {
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
}
