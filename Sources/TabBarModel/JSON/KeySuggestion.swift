/// The known key an unknown one was probably meant to be, for "did you mean" hints.
enum KeySuggestion {
    /// The known key equal to `key` ignoring case, else the one closest to it by edit distance (ignoring case) when
    /// that distance is at most 2 and less than half the known key's length; ties go to the alphabetically first.
    static func closest(to key: String, in known: Set<String>) -> String? {
        let typed = Array(key.lowercased().unicodeScalars)
        var best: (key: String, distance: Int)?
        for candidate in known.sorted() {
            let target = Array(candidate.lowercased().unicodeScalars)
            let limit = min(2, (target.count - 1) / 2)
            guard abs(target.count - typed.count) <= limit else { continue }
            let distance = editDistance(typed, target)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.key
    }

    /// `, did you mean "…"?` naming the known key closest to `key` (as ``closest(to:in:)`` finds it), or nothing
    /// when none is close.
    static func didYouMean(_ key: String, in known: Set<String>) -> String {
        closest(to: key, in: known).map { ", did you mean \"\($0)\"?" } ?? ""
    }

    /// Edit distance counting insertions, deletions, substitutions and swaps of two neighbours as one edit each
    /// (optimal string alignment).
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var beforePrevious = Array(repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = previous
        for i in a.indices {
            current[0] = i + 1
            for j in b.indices {
                var distance = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] {
                    distance = min(distance, beforePrevious[j - 1] + 1)
                }
                current[j + 1] = distance
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
