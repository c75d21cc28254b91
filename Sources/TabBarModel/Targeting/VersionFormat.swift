/// The versions a condition compares with `$veq`, `$vne`, `$vgt`, `$vgte`, `$vlt` and `$vlte` ("5.2",
/// "5.2.0-beta.1", "v5.2.0+42").
public enum VersionFormat {
    /// The pattern, as messages state it.
    public static let pattern = #"^v?[0-9]+(\.[0-9]+){0,3}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"#

    /// Whether `version` matches ``pattern``: `v` optional, 1 to 4 numbers separated by dots, an optional
    /// `-prerelease` and an optional `+build` of letters, digits, dots and hyphens.
    public static func isWellFormed(_ version: String) -> Bool {
        var rest = Array(version.utf8)[...]
        if rest.first == UInt8(ascii: "v") { rest = rest.dropFirst() }
        if let plus = rest.firstIndex(of: UInt8(ascii: "+")) {
            guard isLabel(rest[(plus + 1)...]) else { return false }
            rest = rest[..<plus]
        }
        if let hyphen = rest.firstIndex(of: UInt8(ascii: "-")) {
            guard isLabel(rest[(hyphen + 1)...]) else { return false }
            rest = rest[..<hyphen]
        }
        let numbers = rest.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return (1...4).contains(numbers.count) && numbers.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
    }

    /// A non-empty run of `[0-9A-Za-z.-]`.
    private static func isLabel(_ bytes: ArraySlice<UInt8>) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { byte in
                byte.isASCIIDigit || byte.isASCIILetter || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            }
    }
}
