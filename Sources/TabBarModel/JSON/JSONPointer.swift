/// Builds RFC 6901 JSON pointers ("/tabs/2/title/default"); the empty pointer is the whole document.
public enum JSONPointer {
    /// One reference token with "~" and "/" escaped as "~0" and "~1".
    public static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return token
        }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// Appends one reference token, escaping "~" and "/".
    public static func appending(_ token: String, to pointer: String) -> String {
        pointer + "/" + escape(token)
    }

    /// Appends an array index.
    public static func appending(_ index: Int, to pointer: String) -> String {
        pointer + "/" + String(index)
    }

    /// The pointer of a `Decoder`'s coding path: integer keys are array indices, the others member names.
    static func pointer(to codingPath: [any CodingKey]) -> String {
        codingPath.reduce("") { pointer, key in
            key.intValue.map { appending($0, to: pointer) } ?? appending(key.stringValue, to: pointer)
        }
    }

    /// Whether `pointer` is `ancestor` itself or lies below it.
    static func isWithin(_ pointer: String, _ ancestor: String) -> Bool {
        ancestor.isEmpty || pointer == ancestor || pointer.hasPrefix(ancestor + "/")
    }
}
