import Foundation

/// The binary framing shared by the journal and the snapshot:
/// `[u32 LE payload length][u32 LE CRC32C of the length bytes][u32 LE CRC32C of the payload][payload]`.
///
/// A record is valid when its length checksum holds, its length is at most `maxPayload`, it fits in the file and its
/// payload checksum holds. Damage is classified by what follows it, not by which check failed: when no valid record
/// starts at any later offset, the damage is a torn tail (what a power loss leaves past the last fsync'd record);
/// when one does, it is corruption in the middle of the file.
enum RecordFraming {
    /// Bytes before each payload.
    static let headerSize = 12
    /// The largest payload a record may carry.
    static let maxPayload = 1 << 20

    /// The length checksum of a zero length, so zero fill is rejected without computing a checksum per offset.
    private static let zeroLengthChecksum = CRC32C.checksum([UInt8](repeating: 0, count: 4))

    /// One well-formed record.
    struct Frame: Equatable {
        /// Byte offset of the record's header in the file.
        var offset: Int
        /// Byte range of the payload in the file.
        var payload: Range<Int>
        /// Byte offset just past the record.
        var end: Int { payload.upperBound }
    }

    /// The first invalid record a scan met.
    struct Damage: Equatable {
        /// Byte offset where the invalid record starts.
        var offset: Int
        /// Which check failed.
        var reason: String
        /// Byte offset of the first valid record after the damage; nil when none follows (a torn tail).
        var nextValid: Int?

        /// Whether nothing valid follows the damage.
        var isTornTail: Bool { nextValid == nil }
    }

    /// How a scan ended.
    enum Outcome: Equatable {
        /// Every byte belonged to a valid record.
        case clean
        /// An invalid record starts at `damage.offset`; everything before it is intact.
        case damaged(Damage)
    }

    /// Appends one framed record to `buffer`.
    static func append(_ payload: Data, to buffer: inout Data) {
        precondition(payload.count <= maxPayload, "payload exceeds the record limit")
        let lengthBytes = littleEndianBytes(UInt32(payload.count))
        buffer.append(contentsOf: lengthBytes)
        buffer.append(contentsOf: littleEndianBytes(CRC32C.checksum(lengthBytes)))
        let payloadCRC = payload.withUnsafeBytes { CRC32C.checksum($0) }
        buffer.append(contentsOf: littleEndianBytes(payloadCRC))
        buffer.append(payload)
    }

    /// The valid record at `offset`, or why there is none.
    static func record(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Result<Frame, Invalid> {
        let size = bytes.count
        guard size - offset >= headerSize else {
            return .failure(Invalid("incomplete record header (\(size - offset) bytes)"))
        }
        let length = readUInt32(bytes, at: offset)
        let lengthCRC = readUInt32(bytes, at: offset + 4)
        guard lengthCRC == lengthChecksum(length, bytes, at: offset) else {
            if length == 0, lengthCRC == 0, readUInt32(bytes, at: offset + 8) == 0 {
                return .failure(Invalid("zero fill"))
            }
            return .failure(Invalid("length checksum mismatch"))
        }
        guard Int(length) <= maxPayload else {
            return .failure(Invalid("length \(length) exceeds the \(maxPayload)-byte limit"))
        }
        let payloadStart = offset + headerSize
        let end = payloadStart + Int(length)
        guard end <= size else {
            return .failure(Invalid("record of \(length) bytes runs past the end of the file"))
        }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[payloadStart..<end])
        guard CRC32C.checksum(payload) == readUInt32(bytes, at: offset + 8) else {
            return .failure(Invalid("payload checksum mismatch"))
        }
        return .success(Frame(offset: offset, payload: payloadStart..<end))
    }

    /// Walks the valid records in `bytes` from `start`, calling `visit` for each, up to the first invalid one; then
    /// looks for a valid record at any later offset to tell a torn tail from corruption in the middle.
    static func scan(
        _ bytes: UnsafeRawBufferPointer, from start: Int, visit: (Frame) throws -> Void
    ) rethrows -> Outcome {
        var offset = start
        while offset < bytes.count {
            switch record(in: bytes, at: offset) {
            case .success(let frame):
                try visit(frame)
                offset = frame.end
            case .failure(let invalid):
                let next = firstValidRecord(in: bytes, from: offset + 1)
                return .damaged(Damage(offset: offset, reason: invalid.reason, nextValid: next))
            }
        }
        return .clean
    }

    /// Walks every valid record from `start` to the end, resynchronizing after damage: `visit` gets each valid record,
    /// `damaged` each byte range that belongs to none (with the reason the first record in it failed).
    static func survey(
        _ bytes: UnsafeRawBufferPointer, from start: Int, visit: (Frame) -> Void,
        damaged: (_ range: Range<Int>, _ reason: String) -> Void
    ) {
        var offset = start
        while offset < bytes.count {
            switch record(in: bytes, at: offset) {
            case .success(let frame):
                visit(frame)
                offset = frame.end
            case .failure(let invalid):
                let next = firstValidRecord(in: bytes, from: offset + 1) ?? bytes.count
                damaged(offset..<next, invalid.reason)
                offset = next
            }
        }
    }

    /// Number of valid records from `start` to the end, resynchronizing after damage.
    static func validRecordCount(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var count = 0
        survey(bytes, from: start, visit: { _ in count += 1 }, damaged: { _, _ in })
        return count
    }

    /// The offset of the first valid record starting at `start` or later, or nil. Only runs after damage: most
    /// offsets are rejected by the length bound before any checksum is computed.
    static func firstValidRecord(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        let size = bytes.count
        guard size >= headerSize, start <= size - headerSize else { return nil }
        for candidate in max(start, 0)...(size - headerSize) {
            // Little-endian length ≤ maxPayload (0x100000): the top byte is 0 and the next one at most 0x10.
            guard bytes[candidate + 3] == 0, bytes[candidate + 2] <= 0x10 else { continue }
            let length = readUInt32(bytes, at: candidate)
            guard Int(length) <= maxPayload, candidate + headerSize + Int(length) <= size,
                readUInt32(bytes, at: candidate + 4) == lengthChecksum(length, bytes, at: candidate)
            else { continue }
            if case .success = record(in: bytes, at: candidate) { return candidate }
        }
        return nil
    }

    /// Why there is no valid record at an offset.
    struct Invalid: Error, Equatable {
        var reason: String

        init(_ reason: String) {
            self.reason = reason
        }
    }

    private static func lengthChecksum(_ length: UInt32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        length == 0 ? zeroLengthChecksum : CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4]))
    }

    private static func littleEndianBytes(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    private static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
