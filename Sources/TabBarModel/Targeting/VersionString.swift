/// The versions a request's `appVersion` / `osVersion` and a condition's `$v…` operand may be: an optional `v`,
/// one to four dot-separated numbers, an optional `-prerelease` and an optional `+build` (letters, digits, `.` and
/// `-`). "5.2", "5.2.0-beta.1" and "v5.2.0+42" are versions; "5..2", "abc" and "" are not.
public enum VersionString {
    /// The longest version accepted, in bytes.
    public static let maximumLength = 64

    /// Whether `text` is a well-formed version.
    public static func isWellFormed(_ text: some StringProtocol) -> Bool {
        var bytes = Array(text.utf8)[...]
        guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
        if bytes.first == UInt8(ascii: "v") { bytes = bytes.dropFirst() }
        var core = bytes
        var suffixes: ArraySlice<UInt8> = []
        if let cut = bytes.firstIndex(where: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }) {
            core = bytes[..<cut]
            suffixes = bytes[cut...]
        }
        let numbers = core.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard (1...4).contains(numbers.count), numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }) else {
            return false
        }
        if suffixes.first == UInt8(ascii: "-") {
            let end = suffixes.firstIndex(of: UInt8(ascii: "+")) ?? suffixes.endIndex
            guard isIdentifier(suffixes[suffixes.index(after: suffixes.startIndex)..<end]) else { return false }
            suffixes = suffixes[end...]
        }
        if suffixes.first == UInt8(ascii: "+") {
            return isIdentifier(suffixes.dropFirst())
        }
        return suffixes.isEmpty
    }

    /// A non-empty run of letters, digits, `.` and `-`.
    private static func isIdentifier(_ bytes: ArraySlice<UInt8>) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { byte in
                isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "-")
            }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
