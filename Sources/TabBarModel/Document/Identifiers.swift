/// The id patterns of docs/design/model.md, "Identifiers": the one rule for client and user ids, used by the API and by the store (which
/// names directories after client ids), and for the names inside a document (tab ids, experiment keys, group names).
public enum Identifiers {
    /// The client id pattern, as messages and the OpenAPI document state it.
    public static let clientPattern = "^[a-z0-9][a-z0-9-]{0,62}$"
    /// The user id pattern, as messages and the OpenAPI document state it.
    public static let userPattern = "^[A-Za-z0-9._~@+-]{1,128}$"

    /// Whether `id` matches ``clientPattern``, which also makes it safe as a directory name.
    public static func isValidClient(_ id: String) -> Bool {
        let bytes = id.utf8
        guard (1...63).contains(bytes.count), let first = bytes.first else { return false }
        func lowerOrDigit(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) }
        return lowerOrDigit(first) && bytes.dropFirst().allSatisfy { lowerOrDigit($0) || $0 == 0x2D }
    }

    /// Whether `id` matches ``userPattern``.
    public static func isValidUser(_ id: String) -> Bool {
        let bytes = id.utf8
        guard (1...128).contains(bytes.count) else { return false }
        return bytes.allSatisfy { b in
            (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
                || b == 0x2E || b == 0x5F || b == 0x7E || b == 0x40 || b == 0x2B || b == 0x2D
        }
    }

    /// The pattern of experiment keys and group names, as messages state it.
    public static let keyPattern = "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"

    /// Whether `key` matches ``keyPattern``.
    public static func isValidKey(_ key: String) -> Bool {
        isName(key, allowsUppercase: true)
    }

    /// Whether `name` matches `^[a-z0-9][a-z0-9._-]{0,63}$` (a tab id), or `^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$` when
    /// upper-case letters are allowed.
    static func isName(_ name: String, allowsUppercase: Bool) -> Bool {
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            byte.isASCIIDigit || (allowsUppercase ? byte.isASCIILetter : byte.isASCIILowercase)
        }
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= 64, isAlphanumeric(first) else { return false }
        return bytes.dropFirst().allSatisfy { byte in
            isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}
