/// ASCII classes of a UTF-8 byte, for the model's pattern checks (ids, tags, versions, timestamps).
extension UInt8 {
    /// `0`…`9`.
    var isASCIIDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }

    /// `a`…`z`.
    var isASCIILowercase: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
    }

    /// `a`…`z` or `A`…`Z`.
    var isASCIILetter: Bool {
        isASCIILowercase || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }
}
