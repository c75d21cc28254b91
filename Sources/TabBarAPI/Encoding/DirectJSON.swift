import Foundation

/// Writing small JSON values straight into bytes, where that gives exactly what `JSONCoding` would: only strings
/// that JSON carries as they are (printable ASCII other than `"` and `\`) are written directly. The appending
/// functions report whether every string was such; when one was not, the caller drops what was appended and falls
/// back to `JSONCoding`.
enum DirectJSON {
    /// Appends `"text"` and returns true when JSON encodes `text` as its bytes between quotes; else false.
    static func appendPlain(_ text: String, to body: inout [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.allSatisfy(isPlain) else { return false }
            body.append(UInt8(ascii: "\""))
            body.append(contentsOf: bytes)
            body.append(UInt8(ascii: "\""))
            return true
        }
    }

    /// Appends `"key":[…]`; false when an item of `list` is not plain.
    static func appendMember(_ key: StaticString, _ list: [String], to body: inout [UInt8]) -> Bool {
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
    static func append(_ literal: StaticString, to body: inout [UInt8]) {
        body.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends `value` in decimal, as `JSONCoding` writes an integer.
    static func appendDecimal(_ value: UInt64, to body: inout [UInt8]) {
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

    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }
}
