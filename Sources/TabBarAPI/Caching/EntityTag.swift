import Crypto
import Foundation
import MicroHTTP

/// Strong entity tags of the API's representations, and the `If-None-Match` / `If-Match` rules of RFC 9110.
///
/// Every tag is made of numbers the store never reuses (config versions, customization revisions), the resolved
/// locale, the targeting outcome's key (`TargetingOutcome.key`: empty without targeting, else starting with `.`,
/// which no locale holds) and, for a user's representations, the user (revisions count per user), so a tag names
/// exactly one body and requests that get the same body share it. User ids (`[A-Za-z0-9._~@+-]`) and locales hold
/// no `:`, which sets the user apart.
enum EntityTag {
    /// The default tab bar of a config version in a locale for a targeting outcome.
    static func defaultTabs(version: Int, locale: String, outcome: String = "") -> String {
        "\"t\(version)-\(locale)\(outcome)\""
    }

    /// A user's tab bar: config version, locale, targeting outcome, the user's customization revision and the user.
    static func userTabs(version: Int, locale: String, outcome: String = "", revision: UInt64, user: String) -> String {
        "\"u\(version)-\(locale)\(outcome)-\(revision):\(user)\""
    }

    /// An OFREP bulk evaluation, read off the tab bar tagged `tabBar`: that tag with `o` before it, and `b` after the
    /// `o` when the context names a build with a registered manifest (`forBuild`), whose flags give other reasons for
    /// the same tab bar.
    static func flags(tabBar: String, forBuild: Bool = false) -> String {
        (forBuild ? "\"ob" : "\"o") + tabBar.dropFirst()
    }

    /// A build manifest's tag: the store's revision of it.
    static func build(revision: Int) -> String {
        "\"b\(revision)\""
    }

    /// A config version's source document.
    static func config(version: Int) -> String {
        "\"c\(version)\""
    }

    /// A user's stored customization: its revision and the user.
    static func tabOrder(revision: UInt64, user: String) -> String {
        "\"r\(revision):\(user)\""
    }

    /// A static file's tag: `kind` and the first 12 bytes of its body's SHA-256, in hexadecimal.
    static func content(_ kind: Character, _ body: Data) -> String {
        "\"\(kind)-" + SHA256.hash(data: body).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// The tag of the representation tagged `tag` sent in `coding`: the same tag for identity, else `;` and the
    /// coding before the closing quote (`"t3-en;br"`). No tag of this API holds a `;` otherwise.
    static func encoded(_ tag: String, _ coding: ContentCoding) -> String {
        guard coding != .identity, tag.hasSuffix("\"") else { return tag }
        return String(tag.dropLast()) + ";" + coding.rawValue + "\""
    }

    /// `If-None-Match`: true when `header` lists `tag` (weak comparison) or is `*`. Reads the header in place: every
    /// revalidation of a tab bar comes through here.
    static func noneMatchHits(_ header: String, _ tag: String) -> Bool {
        var rest = header.utf8[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: ",")) ?? rest.endIndex
            var candidate = rest[..<end]
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
            while let first = candidate.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                candidate = candidate.dropFirst()
            }
            while let last = candidate.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
                candidate = candidate.dropLast()
            }
            if candidate.elementsEqual("*".utf8) {
                return true
            }
            if candidate.starts(with: "W/".utf8) {
                candidate = candidate.dropFirst(2)
            }
            if candidate.elementsEqual(tag.utf8) {
                return true
            }
        }
        return false
    }

    /// `tag` without the content coding ``encoded(_:_:)`` added: the tag of the representation whatever coding it
    /// was sent in.
    static func withoutCoding(_ tag: String) -> String {
        for coding in ContentCoding.allCases where coding != .identity {
            let suffix = ";" + coding.rawValue + "\""
            if tag.hasSuffix(suffix) { return String(tag.dropLast(suffix.count)) + "\"" }
        }
        return tag
    }

    /// `If-Match`: true when `header` is `*` and a representation exists, or lists `tag` (strong comparison) in any
    /// content coding: a writer that read the gzip or brotli form of the current representation holds its tag with
    /// the coding added, and the write concerns the resource, not how it was sent.
    static func matchHolds(_ header: String, current tag: String?) -> Bool {
        let candidates = list(header).map(withoutCoding)
        if candidates.contains("*") { return tag != nil }
        guard let tag else { return false }
        return candidates.contains(tag)
    }

    static func list(_ header: String) -> [String] {
        header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
