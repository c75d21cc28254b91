import Foundation

/// Writing small JSON values straight into bytes, where that gives exactly what `JSONCoding` would: only strings
/// that JSON carries as they are (printable ASCII other than `"` and `\`) are written directly; callers fall back to
/// `JSONCoding` for anything else.
enum DirectJSON {
    /// Whether JSON encodes `text` as its bytes between quotes.
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// Whether every string of every list is plain.
    static func arePlain(_ lists: [[String]]) -> Bool {
        lists.allSatisfy { $0.allSatisfy(isPlain) }
    }

    /// Appends a plain string with its quotes.
    static func appendQuoted(_ text: String, to body: inout [UInt8]) {
        body.append(UInt8(ascii: "\""))
        body.append(contentsOf: text.utf8)
        body.append(UInt8(ascii: "\""))
    }

    /// Appends `"key":[…]` for a list of plain strings.
    static func appendMember(_ key: String, _ list: [String], to body: inout [UInt8]) {
        appendQuoted(key, to: &body)
        body.append(contentsOf: ":[".utf8)
        for (index, item) in list.enumerated() {
            if index > 0 {
                body.append(UInt8(ascii: ","))
            }
            appendQuoted(item, to: &body)
        }
        body.append(UInt8(ascii: "]"))
    }
}
