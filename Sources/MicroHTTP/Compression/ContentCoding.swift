/// A content coding a prepared answer can be sent in (RFC 9110 §8.4.1), and the choice among them that a request's
/// `Accept-Encoding` makes (§12.5.3).
public enum ContentCoding: String, Sendable, Hashable, CaseIterable {
    case identity
    case gzip
    case brotli = "br"

    /// The server's preference when the request weighs codings alike: the smallest first.
    private var preference: Int {
        switch self {
        case .brotli: 0
        case .gzip: 1
        case .identity: 2
        }
    }

    /// The coding of `offered` to send for the `Accept-Encoding` value `header`, or nil when none is acceptable (a
    /// `406`: the header refuses `identity` too, by `identity;q=0` or by `*;q=0` without naming it).
    ///
    /// No header: identity. Each listed coding gets its `q` (1 without one; `x-gzip` is `gzip`); `*` gives its `q` to
    /// every coding not listed; `identity` is acceptable unless refused. Among the acceptable ones the highest `q`
    /// wins, ties going to the smaller coding. A malformed `q` counts as 0 for that element.
    public static func negotiate(_ header: String?, offered: [ContentCoding]) -> ContentCoding? {
        guard var header else { return offered.contains(.identity) ? .identity : offered.first }
        var weights = Weights()
        // Every request that asks for a coding comes through here: one pass over the bytes, nothing allocated.
        header.withUTF8 { weights.read($0) }
        var best: ContentCoding?
        var bestWeight = 0
        for coding in offered {
            let weight = weights.weight(coding)
            guard weight > 0 else { continue }
            if let chosen = best, weight < bestWeight || (weight == bestWeight && coding.preference >= chosen.preference) {
                continue
            }
            best = coding
            bestWeight = weight
        }
        return best
    }

    /// The weights an `Accept-Encoding` value gives, in thousandths (`q=0.5` is 500); -1 where it gives none.
    private struct Weights {
        var identity = -1
        var gzip = -1
        var brotli = -1
        var wildcard = -1

        /// The weight of `coding`: its own, else the wildcard's; identity unnamed stays acceptable (at the lowest
        /// weight) unless the wildcard refuses it; other codings unnamed are not asked for.
        func weight(_ coding: ContentCoding) -> Int {
            let own = coding == .identity ? identity : coding == .gzip ? gzip : brotli
            if own >= 0 { return own }
            if wildcard >= 0 { return wildcard }
            return coding == .identity ? 1 : 0
        }

        /// Reads the elements of `bytes` (`coding[;q=value][;other]`, comma-separated, whitespace around tokens).
        mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) {
            var index = 0
            while index < bytes.count {
                var end = index
                while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                element(bytes, from: index, to: end)
                index = end + 1
            }
        }

        private mutating func element(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
            var nameEnd = start
            while nameEnd < end, bytes[nameEnd] != UInt8(ascii: ";") { nameEnd += 1 }
            let (nameStart, nameStop) = Self.trimmed(bytes, start, nameEnd)
            var quality = 1000
            var parameter = nameEnd
            while parameter < end {
                var next = parameter + 1
                while next < end, bytes[next] != UInt8(ascii: ";") { next += 1 }
                let (from, to) = Self.trimmed(bytes, parameter + 1, next)
                if to - from >= 2, bytes[from] | 0x20 == UInt8(ascii: "q"), bytes[from + 1] == UInt8(ascii: "=") {
                    quality = Self.quality(bytes, from + 2, to) ?? 0
                }
                parameter = next
            }
            switch Self.coding(bytes, nameStart, nameStop) {
            case .some(.identity): identity = quality
            case .some(.gzip): gzip = quality
            case .some(.brotli): brotli = quality
            case .none where nameStop - nameStart == 1 && bytes[nameStart] == UInt8(ascii: "*"): wildcard = quality
            case .none: break
            }
        }

        /// The coding `bytes[from..<to]` names, in any case (`x-gzip` is gzip); nil for another name.
        private static func coding(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> ContentCoding? {
            func named(_ name: StaticString) -> Bool {
                guard to - from == name.utf8CodeUnitCount else { return false }
                for offset in 0..<(to - from) where bytes[from + offset] | 0x20 != name.utf8Start[offset] {
                    return false
                }
                return true
            }
            if named("br") { return .brotli }
            if named("gzip") || named("x-gzip") { return .gzip }
            if named("identity") { return .identity }
            return nil
        }

        /// An RFC 9110 `qvalue` (`0`, `0.5`, `1`, `1.000`: at most three decimals, not above 1) in thousandths; nil
        /// when malformed.
        private static func quality(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Int? {
            guard from < to, to - from <= 5, bytes[from] == UInt8(ascii: "0") || bytes[from] == UInt8(ascii: "1")
            else { return nil }
            var value = Int(bytes[from] - UInt8(ascii: "0")) * 1000
            guard to - from > 1 else { return value }
            guard bytes[from + 1] == UInt8(ascii: ".") else { return nil }
            var scale = 100
            for index in (from + 2)..<to {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
                value += Int(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
            }
            return value <= 1000 ? value : nil
        }

        /// `from..<to` without the spaces and tabs around it.
        private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> (Int, Int) {
            var from = from
            var to = to
            while from < to, bytes[from] == UInt8(ascii: " ") || bytes[from] == UInt8(ascii: "\t") { from += 1 }
            while to > from, bytes[to - 1] == UInt8(ascii: " ") || bytes[to - 1] == UInt8(ascii: "\t") { to -= 1 }
            return (from, to)
        }
    }
}
