/// The versions a condition compares with `$veq`, `$vne`, `$vgt`, `$vgte`, `$vlt` and `$vlte` ("5.2",
/// "5.2.0-beta.1", "v5.2.0+42").
public enum VersionFormat {
    /// The pattern, as messages state it.
    public static let pattern = #"^v?[0-9]+(\.[0-9]+){0,3}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"#

    /// Whether `version` matches ``pattern``: `v` optional, 1 to 4 numbers separated by dots, an optional
    /// `-prerelease` and an optional `+build` of letters, digits, dots and hyphens.
    public static func isWellFormed(_ version: String) -> Bool {
        // One pass over the bytes, no allocation: every targeted request checks its appVersion and osVersion.
        var bytes = version.utf8[...]
        if bytes.first == UInt8(ascii: "v") { bytes = bytes.dropFirst() }
        var numbers = 0
        var digits = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte.isASCIIDigit {
                digits += 1
            } else if byte == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                numbers += 1
                digits = 0
            } else {
                break
            }
            index = bytes.index(after: index)
        }
        guard digits > 0, numbers + 1 <= 4 else { return false }
        var rest = bytes[index...]
        if rest.first == UInt8(ascii: "-") {
            let end = rest.firstIndex(of: UInt8(ascii: "+")) ?? rest.endIndex
            guard isLabel(rest[rest.index(after: rest.startIndex)..<end]) else { return false }
            rest = rest[end...]
        }
        if rest.first == UInt8(ascii: "+") {
            return isLabel(rest.dropFirst())
        }
        return rest.isEmpty
    }

    /// A non-empty run of `[0-9A-Za-z.-]`.
    private static func isLabel(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { byte in
                byte.isASCIIDigit || byte.isASCIILetter || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            }
    }
}
