import Foundation

/// The language ranges of an `Accept-Language` header in preference order (RFC 9110 §12.5.4).
/// Ranges with q=0, the wildcard `*`, and entries with a malformed q-value are left out.
struct AcceptLanguage {
    /// Ranges, most preferred first; equal q-values keep header order.
    let ranges: [String]

    /// Most ranges read from one header; the rest are ignored.
    static let maximumRanges = 64

    init(header: String) {
        var weighted: [(range: String, quality: Double, position: Int)] = []
        for (position, element) in header.split(separator: ",").prefix(Self.maximumRanges).enumerated() {
            let parts = element.split(separator: ";")
            guard let first = parts.first else { continue }
            let range = first.trimmingCharacters(in: .whitespaces)
            guard !range.isEmpty, range != "*" else { continue }
            var quality = 1.0
            var wellFormed = true
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "q" else {
                    continue
                }
                guard let value = Double(pair[1].trimmingCharacters(in: .whitespaces)), (0...1).contains(value) else {
                    wellFormed = false
                    break
                }
                quality = value
            }
            if wellFormed, quality > 0 {
                weighted.append((range, quality, position))
            }
        }
        weighted.sort { lhs, rhs in
            lhs.quality != rhs.quality ? lhs.quality > rhs.quality : lhs.position < rhs.position
        }
        ranges = weighted.map(\.range)
    }
}
