/// The one writer of JSON straight into bytes, for the paths where building values for `JSONEncoder` costs too
/// much: response bodies on the hot paths and the store's records.
///
/// Two kinds of string writing: `appendPlain` writes only strings that JSON carries as they are (printable ASCII
/// other than `"` and `\`), exactly what `CanonicalJSON` would give, and reports false for any other so the caller
/// can fall back to `CanonicalJSON`; `appendString` writes any string, escaping as the store's record format does.
public enum DirectJSON {
    /// Appends `"text"` and returns true when JSON encodes `text` as its bytes between quotes; else false.
    @inlinable
    public static func appendPlain(_ text: String, to body: inout [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.allSatisfy(isPlain) else { return false }
            body.append(UInt8(ascii: "\""))
            body.append(contentsOf: bytes)
            body.append(UInt8(ascii: "\""))
            return true
        }
    }

    /// Appends `text` as a JSON string exactly as `CanonicalJSON` writes it: directly when plain, else through the
    /// encoder.
    public static func appendCanonical(_ text: String, to body: inout [UInt8]) {
        if !appendPlain(text, to: &body) {
            body.append(contentsOf: CanonicalJSON.encode(text))
        }
    }

    /// Appends `"key":[…]`; false when an item of `list` is not plain.
    @inlinable
    public static func appendMember(_ key: StaticString, _ list: [String], to body: inout [UInt8]) -> Bool {
        body.append(UInt8(ascii: "\""))
        append(key, to: &body)
        body.append(contentsOf: "\":[".utf8)
        for (index, item) in list.enumerated() {
            if index > 0 {
                body.append(UInt8(ascii: ","))
            }
            guard appendPlain(item, to: &body) else { return false }
        }
        body.append(UInt8(ascii: "]"))
        return true
    }

    /// Appends the bytes of a literal.
    @inlinable
    public static func append(_ literal: StaticString, to body: inout [UInt8]) {
        body.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends `value` in decimal, as `CanonicalJSON` writes an integer.
    @inlinable
    public static func appendDecimal(_ value: UInt64, to body: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for UInt64.max's 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            body.append(contentsOf: buffer[start...])
        }
    }

    /// Appends `value` in decimal, with a minus sign when negative.
    @inlinable
    public static func appendDecimal(_ value: Int, to body: inout [UInt8]) {
        if value < 0 {
            body.append(UInt8(ascii: "-"))
        }
        appendDecimal(UInt64(value.magnitude), to: &body)
    }

    /// Appends any string as a JSON string: `"` and `\` escaped, newline, return and tab as `\n`, `\r`, `\t`, other
    /// control characters as `\u00XX`, everything else as its UTF-8 bytes.
    public static func appendString(_ string: String, to body: inout [UInt8]) {
        body.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied whole from their contiguous UTF-8.
        let copied = string.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            body.append(contentsOf: utf8)
            return true
        }
        if copied == true {
            body.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): body.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): body.append(contentsOf: #"\\"#.utf8)
            case 0x0A: body.append(contentsOf: #"\n"#.utf8)
            case 0x0D: body.append(contentsOf: #"\r"#.utf8)
            case 0x09: body.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                body.append(contentsOf: #"\u00"#.utf8)
                body.append(hexDigit(byte >> 4))
                body.append(hexDigit(byte & 0x0F))
            default: body.append(byte)
            }
        }
        body.append(UInt8(ascii: "\""))
    }

    /// Appends `[…]` of strings written by `appendString`.
    public static func appendStrings(_ strings: [String], to body: inout [UInt8]) {
        body.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 {
                body.append(UInt8(ascii: ","))
            }
            appendString(string, to: &body)
        }
        body.append(UInt8(ascii: "]"))
    }

    /// Whether JSON carries `byte` as it is in a string: printable ASCII other than `"` and `\`.
    @inlinable
    public static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
