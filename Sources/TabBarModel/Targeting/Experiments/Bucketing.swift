/// GrowthBook's deterministic bucketing (`util.ts`): hashing an attribute value into [0, 1), the ranges of an
/// experiment's variations, and the variation a bucket falls in.
enum Bucketing {
    /// GrowthBook's `hash(seed, value, version)`: version 1 is `fnv1a(value + seed) % 1000 / 1000` (biased, kept for
    /// compatibility), version 2 `fnv1a(String(fnv1a(seed + value))) % 10000 / 10000`; nil for any other version.
    ///
    /// FNV-1a runs over UTF-16 code units, as the JavaScript reference (`charCodeAt`) does, so non-ASCII text hashes
    /// exactly as in the other GrowthBook SDKs that follow it: "é" is one unit 0x00E9, not its two UTF-8 bytes, and a
    /// character outside the Basic Multilingual Plane ("😀") is its two surrogate units. The whole unit is XORed in
    /// (not only its low byte). Swift strings cannot hold lone surrogates, so a value JavaScript could hash with one
    /// reaches here already repaired (U+FFFD) and hashes differently.
    static func hash(seed: String, value: String, version: Int) -> Double? {
        switch version {
        case 2:
            return hash(seedState: FNV1a.hash(utf16: seed), value: value)
        case 1:
            return Double(FNV1a.hash(utf16: value + seed) % 1000) / 1000
        default:
            return nil
        }
    }

    /// Version 2 of ``hash(seed:value:version:)`` with the seed already hashed (`FNV1a.hash(utf16: seed)`), as a
    /// compiled plan keeps it.
    static func hash(seedState: UInt32, value: String) -> Double {
        let inner = FNV1a.hash(utf16: value, continuing: seedState)
        return Double(FNV1a.hash(decimal: inner) % 10000) / 10000
    }

    /// GrowthBook's `getBucketRanges`: one `[start, end)` range per variation. Coverage is clamped to 0…1 (absent
    /// means 1); weights of the wrong count or not summing to 1 ± 0.01 (or absent) become equal weights; each range
    /// starts where the previous variation's full weight ended and covers `coverage × weight` of it.
    static func getBucketRanges(numVariations: Int, coverage: Double?, weights: [Double]?) -> [VariationRange] {
        let coverage = min(max(coverage ?? 1, 0), 1)
        let equal = getEqualWeights(numVariations)
        var chosen = weights ?? equal
        if chosen.count != numVariations { chosen = equal }
        let total = chosen.reduce(0, +)
        if total < 0.99 || total > 1.01 { chosen = equal }
        var cumulative = 0.0
        return chosen.map { weight in
            let start = cumulative
            cumulative += weight
            return VariationRange(start: start, end: start + coverage * weight)
        }
    }

    /// `n` equal weights of `1/n`; none for `n ≤ 0`.
    static func getEqualWeights(_ count: Int) -> [Double] {
        count <= 0 ? [] : Array(repeating: 1 / Double(count), count: count)
    }

    /// GrowthBook's `chooseVariation`: the index of the first range holding the bucket, -1 when none does.
    static func chooseVariation(bucket: Double, ranges: [VariationRange]) -> Int {
        ranges.firstIndex { $0.contains(bucket) } ?? -1
    }
}
