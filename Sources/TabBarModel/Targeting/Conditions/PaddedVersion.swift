/// GrowthBook's version padding for the `$v…` operators (`paddedVersionString`): a version becomes a string whose
/// code-unit order is the version order.
enum PaddedVersion {
    /// The padded form: numbers taken as their string, anything else but a non-empty string as "0"; a leading
    /// `v` and build metadata (`+…`) dropped; parts split at `.` and `-`; a release (exactly three parts) gets a
    /// `~` part so it sorts after its pre-releases; numeric parts left-padded with spaces to five characters; joined
    /// by `-`.
    static func string(for value: JSONValue) -> String {
        let text: String
        switch value {
        case .integer, .double: text = value.javaScriptString
        case .string(let string) where !string.isEmpty: text = string
        default: text = "0"
        }
        return paddedASCII(text) ?? padded(text)
    }

    /// The padded form of any text, through intermediate strings.
    static func padded(_ text: String) -> String {
        var text = text
        if text.hasPrefix("v") { text.removeFirst() }
        if let plus = text.firstIndex(where: { $0 == "+" }), !text[plus...].contains(where: \.isNewline) {
            text = String(text[..<plus])
        }
        var parts = text.split(omittingEmptySubsequences: false) { $0 == "." || $0 == "-" }.map(String.init)
        if parts.count == 3 { parts.append("~") }
        return parts.map { part in
            let numeric = !part.isEmpty && part.utf8.allSatisfy(\.isASCIIDigit)
            return numeric && part.utf16.count < 5 ? String(repeating: " ", count: 5 - part.utf16.count) + part : part
        }.joined(separator: "-")
    }

    /// The padded form of printable ASCII text in one pass over its bytes (what the general path gives, without
    /// its intermediate strings: versions are compared on every targeted request); nil for any other text.
    static func paddedASCII(_ text: String) -> String? {
        var bytes = Array(text.utf8)[...]
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        if bytes.first == UInt8(ascii: "v") { bytes = bytes.dropFirst() }
        if let plus = bytes.firstIndex(of: UInt8(ascii: "+")) { bytes = bytes[..<plus] }
        let parts = bytes.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
        var result: [UInt8] = []
        result.reserveCapacity(parts.count * 6 + 2)
        for (index, part) in parts.enumerated() {
            if index > 0 { result.append(UInt8(ascii: "-")) }
            let numeric = !part.isEmpty && part.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            if numeric, part.count < 5 {
                result.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 5 - part.count))
            }
            result.append(contentsOf: part)
        }
        if parts.count == 3 { result.append(contentsOf: [UInt8(ascii: "-"), UInt8(ascii: "~")]) }
        return String(decoding: result, as: UTF8.self)
    }
}
