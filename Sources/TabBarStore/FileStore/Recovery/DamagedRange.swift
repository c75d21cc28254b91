/// A byte range of a store file that belongs to no valid record.
public struct DamagedRange: Sendable, Equatable {
    /// Where the range starts.
    public var offset: Int
    /// How many bytes it covers (0 for a missing part, such as entries a snapshot declares but does not hold).
    public var length: Int
    /// Why the first record in it is invalid.
    public var reason: String
    /// Whether the bytes are a record whose checksums hold but whose payload cannot be decoded (written whole, so
    /// never a torn write: open refuses it wherever it is).
    public var isUndecodable: Bool
    /// Valid records after the range in the same file (for a version file: valid later versions of the client).
    /// None means a torn tail; any means corruption in the middle.
    public var validRecordsAfter: Int

    /// Whether nothing valid follows the range.
    public var isTornTail: Bool { validRecordsAfter == 0 }

    /// Creates a damaged range.
    public init(offset: Int, length: Int, reason: String, validRecordsAfter: Int, isUndecodable: Bool = false) {
        self.offset = offset
        self.length = length
        self.reason = reason
        self.isUndecodable = isUndecodable
        self.validRecordsAfter = validRecordsAfter
    }
}
