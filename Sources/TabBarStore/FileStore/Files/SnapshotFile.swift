import Foundation
import Glibc
import Logging
import TabBarModel

/// The compacted customization state: the magic `TCSNAP01`, a framed header record
/// `{"format":1,"lastSeq":N,"entries":M}`, then M framed records (deleted clients' last version numbers first, then
/// puts and resets), nothing after.
/// Written through a temp file, fsync, rename and directory fsync, so it is always whole.
enum SnapshotFile {
    static let magic = Data("TCSNAP01".utf8)

    /// The first record: the format, the journal sequence the snapshot covers and how many entries follow.
    struct Header: Codable {
        var format: Int
        var lastSeq: UInt64
        var entries: Int
    }

    /// Writes `table` as the snapshot at `path`, covering journal records up to `lastSequence`.
    static func write(_ table: CustomizationTable, lastSequence: UInt64, to path: String, io: FileIO) throws {
        let encoder = CanonicalJSON.makeEncoder()
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
    ///
    /// The snapshot is replaced atomically and its header declares how many entries follow, so damage is judged by
    /// what it costs: bytes after every declared entry with no valid record among them (trailing junk) go to a side
    /// file, the snapshot is truncated after its last entry and a warning is logged. Anything else — a bad magic or
    /// header record, fewer intact entries than declared, or a valid record after the damage — refuses with a
    /// `StoreOpenError` naming the file, the offset, what follows and the repair command, and changes nothing: the
    /// journal was cut when the snapshot was written, so its entries exist nowhere else.
    static func read(
        _ path: String, io: FileIO, logger: Logger
    ) throws -> (table: CustomizationTable, lastSequence: UInt64)? {
        guard io.exists(path) else { return nil }
        let mapped: MappedFile
        let fd: Int32
        do {
            fd = try io.open(path, O_RDWR)
            mapped = try MappedFile(fd: fd, path: path)
        } catch {
            throw StoreOpenError("cannot read \(path): \(error)")
        }
        defer { Glibc.close(fd) }
        let data = mapped.bytes
        let advice = StoreRecovery.repairAdvice(dataDirectory: (path as NSString).deletingLastPathComponent)
        guard data.starts(with: magic) else {
            throw StoreOpenError("\(path): corrupt snapshot at byte offset 0 (bad header). \(advice)")
        }
        let decoder = JSONDecoder()
        var header: Header?
        var table = CustomizationTable()
        var count = 0
        var end = magic.count
        let outcome = try RecordFraming.scan(data, from: magic.count) { frame in
            mapped.discard(before: frame.offset)
            func fail(_ reason: String) -> StoreOpenError {
                StoreOpenError("\(path): corrupt snapshot record at byte offset \(frame.offset) (\(reason)). \(advice)")
            }
            end = frame.end
            guard header != nil else {
                header = decodeHeader(Data(data[frame.payload]), decoder: decoder)
                guard header != nil else { throw fail("undecodable header") }
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
        guard let header else {
            let reason = if case .damaged(let damage) = outcome { damage.reason } else { "missing header record" }
            throw StoreOpenError(
                "\(path): corrupt snapshot at byte offset \(magic.count) (\(reason); the header record is lost). \(advice)"
            )
        }
        switch outcome {
        case .clean:
            guard header.entries == count else {
                throw StoreOpenError(
                    "\(path): corrupt snapshot at byte offset \(data.count) "
                        + "(expected \(header.entries) entries, found \(count)). \(advice)"
                )
            }
        case .damaged(let damage):
            if let next = damage.nextValid {
                let following = RecordFraming.validRecordCount(in: data, from: next)
                throw StoreOpenError(
                    "\(path): corrupt snapshot record at byte offset \(damage.offset) (\(damage.reason)); "
                        + "\(following) valid record\(following == 1 ? "" : "s") follow it (the first at byte offset "
                        + "\(next)) and \(count) of \(header.entries) declared entries precede it, so the snapshot "
                        + "was left as it is. \(advice)"
                )
            }
            guard count == header.entries else {
                throw StoreOpenError(
                    "\(path): corrupt snapshot record at byte offset \(damage.offset) (\(damage.reason)); only "
                        + "\(count) of \(header.entries) declared entries are intact, so the snapshot was left as it is. \(advice)"
                )
            }
            let dropped = data.count - end
            let side: String
            do {
                side = try SideFile.write(
                    Data(UnsafeRawBufferPointer(rebasing: data[end...])), from: path, at: end, io: io)
                try io.truncate(fd, to: end, path: path)
            } catch {
                throw StoreOpenError("cannot move the trailing bytes of \(path) aside: \(error)")
            }
            let message =
                "truncating trailing bytes of \(path) after its \(count) entries at byte offset \(end) "
                + "(\(damage.reason); \(dropped) bytes moved to \(side))"
            logger.warning(
                "\(message)",
                metadata: ["file": "\(path)", "offset": "\(end)", "droppedBytes": "\(dropped)", "sideFile": "\(side)"]
            )
        }
        return (table, header.lastSeq)
    }

    /// The header record's contents, or nil when the payload is not a format-1 header.
    static func decodeHeader(_ payload: Data, decoder: JSONDecoder) -> Header? {
        guard let header = try? decoder.decode(Header.self, from: payload), header.format == 1, header.entries >= 0
        else { return nil }
        return header
    }
}
