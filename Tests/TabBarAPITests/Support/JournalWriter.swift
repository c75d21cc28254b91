import Foundation

/// Writes journal records the way the file store frames them, to plant records the API could never write.
enum JournalWriter {
    /// Appends a well-framed `put` record whose value cannot be decoded (`"order": 5`).
    static func appendUndecodableRecord(to journal: URL, client: String, user: String, revision: Int) throws {
        let payload = try JSONSerialization.data(withJSONObject: [
            "op": "put", "client": client, "user": user, "revision": revision, "value": ["order": 5],
        ])
        var record = Data()
        let length = littleEndian(UInt32(payload.count))
        record.append(contentsOf: length)
        record.append(contentsOf: littleEndian(crc32c(length)))
        record.append(contentsOf: littleEndian(crc32c(Array(payload))))
        record.append(payload)
        let handle = try FileHandle(forWritingTo: journal)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: record)
        try handle.synchronize()
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// CRC-32C (Castagnoli), bit by bit: slow and obviously right, which is what a test wants.
    private static func crc32c(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
            }
        }
        return ~crc
    }
}
