/// The 32-bit FNV-1a hash as GrowthBook's JavaScript SDK computes it (`hashFnv32a`): offset basis 0x811C9DC5, each
/// UTF-16 code unit XORed in, then a multiplication by the FNV prime 16777619 modulo 2³².
enum FNV1a {
    static let offsetBasis: UInt32 = 0x811C_9DC5
    static let prime: UInt32 = 16_777_619

    /// The hash of the string's UTF-16 code units.
    static func hash(utf16 text: String) -> UInt32 {
        hash(utf16: text, continuing: offsetBasis)
    }

    /// The hash of `text` appended to what `value` is the hash of: `hash(utf16: a + b)` is
    /// `hash(utf16: b, continuing: hash(utf16: a))`, without building `a + b`.
    static func hash(utf16 text: String, continuing value: UInt32) -> UInt32 {
        // ASCII text's UTF-8 bytes are its UTF-16 code units, and reading them is several times faster.
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> UInt32? in
            var value = value
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                value ^= UInt32(byte)
                value &*= prime
            }
            return value
        }
        if let ascii = ascii ?? nil { return ascii }
        var value = value
        for unit in text.utf16 {
            value ^= UInt32(unit)
            value &*= prime
        }
        return value
    }

    /// The hash of the decimal digits of `number`, as `hash(utf16: String(number))`, without building the string.
    static func hash(decimal number: UInt32) -> UInt32 {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = number
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
        }
        var value = offsetBasis
        withUnsafeBytes(of: &digits) { buffer in
            for index in stride(from: count - 1, through: 0, by: -1) {
                value ^= UInt32(buffer[index])
                value &*= prime
            }
        }
        return value
    }
}
