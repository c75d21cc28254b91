/// GrowthBook's version padding for the `$v…` operators (`paddedVersionString`): a version becomes a string whose
/// code-unit order is the version order.
enum PaddedVersion {
    /// The padded form: numbers taken as their string, anything else but a non-empty string as "0"; a leading
    /// `v` and build metadata (`+…`) dropped; parts split at `.` and `-`; a release (exactly three parts) gets a
    /// `~` part so it sorts after its pre-releases; numeric parts left-padded with spaces to five characters; joined
    /// by `-`.
    static func string(for value: JSONValue) -> String {
        var text: String
        switch value {
        case .integer, .double: text = value.javaScriptString
        case .string(let string) where !string.isEmpty: text = string
        default: text = "0"
        }
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
}
