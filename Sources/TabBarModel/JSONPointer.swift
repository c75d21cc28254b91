/// Builds RFC 6901 JSON pointers ("/tabs/2/title/default"); the empty pointer is the whole document.
enum JSONPointer {
    /// Appends one reference token, escaping "~" and "/".
    static func appending(_ token: String, to pointer: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return pointer + "/" + token
        }
        let escaped = token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        return pointer + "/" + escaped
    }

    /// Appends an array index.
    static func appending(_ index: Int, to pointer: String) -> String {
        pointer + "/" + String(index)
    }

    /// Whether `pointer` is `ancestor` itself or lies below it.
    static func isWithin(_ pointer: String, _ ancestor: String) -> Bool {
        ancestor.isEmpty || pointer == ancestor || pointer.hasPrefix(ancestor + "/")
    }
}
