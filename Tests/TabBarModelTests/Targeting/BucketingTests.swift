@testable import TabBarModel
import Testing

/// GrowthBook hashing of non-ASCII values: over UTF-16 code units, as the JavaScript SDK. The expected values were
/// computed with the JavaScript reference (`hashFnv32a`, `hash`) under Node.js.
@Suite("GrowthBook hashing of non-ASCII values")
struct BucketingTests {
    @Test(
        "Same buckets as the JavaScript reference",
        arguments: [
            ("seed", "\u{E9}", 0.137, 0.8663),
            ("seed", "e\u{301}", 0.438, 0.331),
            ("seed", "😀", 0.429, 0.4346),
            ("shop-2026", "Ünïcödé-user", 0.659, 0.3037),
            ("", "日本", 0.396, 0.2632),
        ])
    func matchesJavaScript(seed: String, value: String, version1: Double, version2: Double) {
        #expect(Bucketing.hash(seed: seed, value: value, version: 1) == version1)
        #expect(Bucketing.hash(seed: seed, value: value, version: 2) == version2)
    }

    @Test("FNV-1a XORs whole UTF-16 code units, surrogate pairs included")
    func codeUnits() {
        #expect(FNV1a.hash(utf16: "\u{E9}") == 1_812_687_940)
        #expect(FNV1a.hash(utf16: "😀") == 3_409_036_472)
    }

    @Test("ASCII text, read as bytes, hashes as its UTF-16 code units; text turning non-ASCII midway too")
    func asciiAsUTF16() {
        func reference(_ text: String) -> UInt32 {
            text.utf16.reduce(FNV1a.offsetBasis) { ($0 ^ UInt32($1)) &* FNV1a.prime }
        }
        for text in ["", "a", "bench-device-3", String(repeating: "long-ascii-", count: 20), "abc\u{E9}", "user-😀", "\u{7F}\u{80}"] {
            #expect(FNV1a.hash(utf16: text) == reference(text), "\(text)")
        }
    }

    @Test("Canonically equivalent spellings hash differently, as in JavaScript")
    func noNormalization() {
        let precomposed = Bucketing.hash(seed: "seed", value: "\u{E9}", version: 2)
        #expect(precomposed != Bucketing.hash(seed: "seed", value: "e\u{301}", version: 2))
    }

    @Test("FNV-1a continued over a second string and over a number's digits equals hashing the built string")
    func fnvWithoutBuilding() {
        for number: UInt32 in [0, 7, 10, 99_999, 1_234_567_890, .max] {
            #expect(FNV1a.hash(decimal: number) == FNV1a.hash(utf16: String(number)))
        }
        for (seed, value) in [("", ""), ("shop-2026", "user-7"), ("é", "😀x"), ("rewards-2026", "bench-device-3")] {
            #expect(FNV1a.hash(utf16: value, continuing: FNV1a.hash(utf16: seed)) == FNV1a.hash(utf16: seed + value))
        }
    }
}
