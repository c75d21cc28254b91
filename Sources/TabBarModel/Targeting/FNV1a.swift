/// The 32-bit FNV-1a hash as GrowthBook's JavaScript SDK computes it (`hashFnv32a`): offset basis 0x811C9DC5, each
/// UTF-16 code unit XORed in, then a multiplication by the FNV prime 16777619 modulo 2³².
enum FNV1a {
    static let offsetBasis: UInt32 = 0x811C_9DC5
    static let prime: UInt32 = 16_777_619

    /// The hash of the string's UTF-16 code units.
    static func hash(utf16 text: String) -> UInt32 {
        var value = offsetBasis
        for unit in text.utf16 {
            value ^= UInt32(unit)
            value &*= prime
        }
        return value
    }
}
