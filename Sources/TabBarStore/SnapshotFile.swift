import Foundation
import Glibc

/// The compacted customization state: the magic `TCSNAP01`, a framed header record
/// `{"format":1,"lastSeq":N,"entries":M}`, then M framed records (deleted clients' last version numbers first, then
/// puts and resets), nothing after.
/// Written through a temp file, fsync, rename and directory fsync, so it is always whole.
enum SnapshotFile {
    static let magic = Data("TCSNAP01".utf8)

    private struct Header: Codable {
        var format: Int
        var lastSeq: UInt64
        var entries: Int
    }

    /// Writes `table` as the snapshot at `path`, covering journal records up to `lastSequence`.
    static func write(_ table: CustomizationTable, lastSequence: UInt64, to path: String, io: FileIO) throws {
        let encoder = JSONEncoder()
        try io.writeAtomically(path) { fd, temporary in
            var buffer = magic
            let header = Header(format: 1, lastSeq: lastSequence, entries: table.recordCount)
            RecordFraming.append(try encoder.encode(header), to: &buffer)
            for record in table.records() {
                RecordFraming.append(record.json(), to: &buffer)
                if buffer.count >= 1 << 20 {
                    try io.writeAll(fd, buffer, path: temporary)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try io.writeAll(fd, buffer, path: temporary)
        }
    }

    /// Reads the snapshot at `path`; nil when there is none.
    static func read(_ path: String, io: FileIO) throws -> (table: CustomizationTable, lastSequence: UInt64)? {
        guard io.exists(path) else { return nil }
        let mapped: MappedFile
        do {
            let fd = try io.open(path, O_RDONLY)
            defer { Glibc.close(fd) }
            mapped = try MappedFile(fd: fd, path: path)
        } catch {
            throw StoreOpenError("cannot read \(path): \(error)")
        }
        let data = mapped.bytes
        guard data.starts(with: magic) else {
            throw StoreOpenError("\(path): corrupt snapshot at byte offset 0 (bad header)")
        }
        let decoder = JSONDecoder()
        var header: Header?
        var table = CustomizationTable()
        var count = 0
        let outcome = try RecordFraming.scan(data, from: magic.count) { frame in
            mapped.discard(before: frame.offset)
            func fail(_ reason: String) -> StoreOpenError {
                StoreOpenError("\(path): corrupt snapshot record at byte offset \(frame.offset) (\(reason))")
            }
            guard header != nil else {
                do {
                    header = try decoder.decode(Header.self, from: Data(data[frame.payload]))
                } catch {
                    throw fail("undecodable header: \(error)")
                }
                guard header?.format == 1 else { throw fail("unknown format") }
                return
            }
            let record: JournalRecord
            do {
                record = try JournalRecord.decode(
                    json: UnsafeRawBufferPointer(rebasing: data[frame.payload]), decoder: decoder)
            } catch {
                throw fail("undecodable record: \(error)")
            }
            table.apply(record.change)
            count += 1
        }
        switch outcome {
        case .clean:
            break
        case .tornTail(let offset):
            throw StoreOpenError("\(path): corrupt snapshot at byte offset \(offset) (truncated record)")
        case .corrupt(let offset, let reason):
            throw StoreOpenError("\(path): corrupt snapshot record at byte offset \(offset) (\(reason))")
        }
        guard let header else {
            throw StoreOpenError("\(path): corrupt snapshot at byte offset \(magic.count) (missing header record)")
        }
        guard header.entries == count else {
            throw StoreOpenError(
                "\(path): corrupt snapshot at byte offset \(data.count) "
                    + "(expected \(header.entries) entries, found \(count))"
            )
        }
        return (table, header.lastSeq)
    }
}
