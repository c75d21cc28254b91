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
        guard let header else { return offered.contains(.identity) ? .identity : offered.first }
        var weights: [ContentCoding: Double] = [:]
        var wildcard: Double?
        for element in header.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let first = parts.first else { continue }
            let name = first.trimmingASCIIWhitespace().lowercased()
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingASCIIWhitespace().lowercased() == "q" else { continue }
                quality = Self.quality(pair[1].trimmingASCIIWhitespace()) ?? 0
            }
            if name == "*" {
                wildcard = quality
            } else if let coding = name == "x-gzip" ? .gzip : ContentCoding(rawValue: name) {
                weights[coding] = quality
            }
        }
        func weight(_ coding: ContentCoding) -> Double {
            if let listed = weights[coding] { return listed }
            if let wildcard { return coding == .identity ? (wildcard > 0 ? wildcard : 0) : wildcard }
            // Unlisted: identity stays acceptable (at the lowest weight); other codings are not asked for.
            return coding == .identity ? 0.001 : 0
        }
        return
            offered
            .filter { weight($0) > 0 }
            .min { (weight($0), -$0.preference) > (weight($1), -$1.preference) }
    }

    /// An RFC 9110 `qvalue`: `0`…`1` with at most three decimals; nil when malformed.
    private static func quality(_ text: Substring) -> Double? {
        guard text.count <= 5, let value = Double(text), (0...1).contains(value),
            text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        else { return nil }
        return value
    }
}

extension Substring {
    fileprivate func trimmingASCIIWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
