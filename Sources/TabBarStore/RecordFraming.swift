import Foundation

/// The binary framing shared by the journal and the snapshot:
/// `[u32 LE payload length][u32 LE CRC32C of the length bytes][u32 LE CRC32C of the payload][payload]`.
enum RecordFraming {
    /// Bytes before each payload.
    static let headerSize = 12
    /// The largest payload a record may carry.
    static let maxPayload = 1 << 20

    /// One well-formed record found by `scan`.
    struct Frame {
        /// Byte offset of the record's header in the file.
        var offset: Int
        /// Byte range of the payload in the file.
        var payload: Range<Int>
        /// Byte offset just past the record.
        var end: Int { payload.upperBound }
    }

    /// How a scan ended.
    enum Outcome: Equatable {
        /// Every byte belonged to a well-formed record.
        case clean
        /// An incomplete record (or zero fill) starts at `offset`; everything before it is intact.
        case tornTail(offset: Int)
        /// A damaged record starts at `offset`.
        case corrupt(offset: Int, reason: String)
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

    /// Walks the records in `bytes` from `start`, calling `visit` for each well-formed one, and classifies how the
    /// data ends. At a record offset: fewer than 12 bytes left, or only zeros left → torn tail; a length checksum
    /// mismatch or an oversized length → corruption; a record running past the end → torn tail; a payload checksum
    /// mismatch → torn tail if the record ends the file or only zeros follow it, otherwise corruption.
    static func scan(
        _ bytes: UnsafeRawBufferPointer, from start: Int, visit: (Frame) throws -> Void
    ) rethrows -> Outcome {
        let size = bytes.count
        let lastNonZero = bytes.lastIndex { $0 != 0 } ?? -1
        var offset = start
        while offset < size {
            if size - offset < headerSize || lastNonZero < offset {
                return .tornTail(offset: offset)
            }
            let length = readUInt32(bytes, at: offset)
            let lengthCRC = readUInt32(bytes, at: offset + 4)
            let payloadCRC = readUInt32(bytes, at: offset + 8)
            if CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4])) != lengthCRC {
                return .corrupt(offset: offset, reason: "length checksum mismatch")
            }
            if Int(length) > maxPayload {
                return .corrupt(offset: offset, reason: "length \(length) exceeds the \(maxPayload)-byte limit")
            }
            let payloadStart = offset + headerSize
            let end = payloadStart + Int(length)
            if end > size {
                return .tornTail(offset: offset)
            }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[payloadStart..<end])
            if CRC32C.checksum(payload) != payloadCRC {
                if end == size || lastNonZero < end {
                    return .tornTail(offset: offset)
                }
                return .corrupt(offset: offset, reason: "payload checksum mismatch")
            }
            try visit(Frame(offset: offset, payload: payloadStart..<end))
            offset = end
        }
        return .clean
    }

    private static func littleEndianBytes(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    private static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
