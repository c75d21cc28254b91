import Foundation
import Glibc
import Logging

/// The append-only customization journal: the magic `TCJOURN1`, then framed `JournalRecord` payloads.
///
/// Not thread-safe: only the one thread that currently holds the log's flushing role uses it.
final class JournalFile {
    static let magic = Data("TCJOURN1".utf8)

    let path: String
    private let io: FileIO
    private var fd: Int32
    /// Bytes in the file, all of them durable.
    private(set) var size: Int

    private init(path: String, io: FileIO, fd: Int32, size: Int) {
        self.path = path
        self.io = io
        self.fd = fd
        self.size = size
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Opens the journal at `path` (creating it when missing) and replays it into `table`, skipping records the
    /// snapshot already holds (sequence ≤ `snapshotSequence`). Returns the journal and the highest sequence it holds.
    ///
    /// Damage is judged by what follows it. When no valid record follows, it is a torn tail: the dropped bytes go to a
    /// side file (durably) first, then the journal is truncated at the damage and a warning names the file, offset and
    /// byte count. When a valid record follows, it is corruption in the middle: nothing is changed and a
    /// `StoreOpenError` names the file, the offset, how many valid records follow and the repair command. A record
    /// whose checksums hold but whose payload is not a journal record also refuses (it was written whole).
    static func open(
        _ path: String, io: FileIO, logger: Logger, snapshotSequence: UInt64, into table: inout CustomizationTable
    ) throws -> (journal: JournalFile, lastSequence: UInt64) {
        guard io.exists(path) else {
            return (try create(path, io: io), 0)
        }
        let fd = try io.open(path, O_RDWR | O_APPEND)
        do {
            let mapped = try MappedFile(fd: fd, path: path)
            let data = mapped.bytes
            if data.count <= magic.count, magic.starts(with: data) {
                if data.count < magic.count {
                    logger.warning(
                        "rewriting the torn header of \(path) at byte offset 0",
                        metadata: ["file": "\(path)", "offset": "0"]
                    )
                    try io.truncate(fd, to: 0, path: path)
                    try io.writeAll(fd, magic, path: path)
                    try io.sync(fd, path: path)
                }
                return (JournalFile(path: path, io: io, fd: fd, size: magic.count), 0)
            }
            guard data.starts(with: magic) else {
                let damage = RecordFraming.Damage(
                    offset: 0, reason: "bad journal header",
                    nextValid: RecordFraming.firstValidRecord(in: data, from: 1)
                )
                try recoverOrRefuse(damage, path: path, fd: fd, data: data, io: io, logger: logger)
                try io.writeAll(fd, magic, path: path)
                try io.sync(fd, path: path)
                return (JournalFile(path: path, io: io, fd: fd, size: magic.count), 0)
            }
            var lastSequence: UInt64 = 0
            let decoder = JSONDecoder()
            let outcome = try RecordFraming.scan(data, from: magic.count) { frame in
                mapped.discard(before: frame.offset)
                let record: JournalRecord
                do {
                    record = try JournalRecord.decode(
                        json: UnsafeRawBufferPointer(rebasing: data[frame.payload]), decoder: decoder)
                } catch {
                    throw StoreOpenError(
                        "\(path): corrupt record at byte offset \(frame.offset) (undecodable payload: \(error)). "
                            + StoreRecovery.repairAdvice(dataDirectory: (path as NSString).deletingLastPathComponent)
                    )
                }
                if let sequence = record.sequence {
                    lastSequence = max(lastSequence, sequence)
                    if sequence <= snapshotSequence { return }
                }
                table.apply(record.change)
            }
            switch outcome {
            case .clean:
                return (JournalFile(path: path, io: io, fd: fd, size: data.count), lastSequence)
            case .damaged(let damage):
                try recoverOrRefuse(damage, path: path, fd: fd, data: data, io: io, logger: logger)
                return (JournalFile(path: path, io: io, fd: fd, size: damage.offset), lastSequence)
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// For a torn tail: moves the bytes from the damage to the end into a side file, then truncates the journal there.
    /// For damage with a valid record after it: throws.
    private static func recoverOrRefuse(
        _ damage: RecordFraming.Damage, path: String, fd: Int32, data: UnsafeRawBufferPointer, io: FileIO,
        logger: Logger
    ) throws {
        if let next = damage.nextValid {
            let following = RecordFraming.validRecordCount(in: data, from: next)
            throw StoreOpenError(
                "\(path): corrupt record at byte offset \(damage.offset) (\(damage.reason)); "
                    + "\(following) valid record\(following == 1 ? "" : "s") follow\(following == 1 ? "s" : "") it "
                    + "(the first at byte offset \(next)), so this is not a torn tail and the journal was left as it is. "
                    + StoreRecovery.repairAdvice(dataDirectory: (path as NSString).deletingLastPathComponent)
            )
        }
        let dropped = data.count - damage.offset
        let side = try SideFile.write(
            Data(UnsafeRawBufferPointer(rebasing: data[damage.offset...])), from: path, at: damage.offset, io: io
        )
        let message =
            "truncating the torn tail of \(path) at byte offset \(damage.offset) (\(damage.reason); \(dropped) bytes "
            + "moved to \(side))"
        logger.warning(
            "\(message)",
            metadata: [
                "file": "\(path)", "offset": "\(damage.offset)", "droppedBytes": "\(dropped)", "sideFile": "\(side)",
            ]
        )
        try io.truncate(fd, to: damage.offset, path: path)
    }

    /// Creates a journal at `path` holding `records` (framed, as ``append(_:)`` takes them), replacing any existing
    /// one, through temp file, fsync, rename and directory fsync.
    static func create(_ path: String, io: FileIO, records: Data = Data()) throws -> JournalFile {
        let fd = try io.createAtomically(path, flags: O_RDWR | O_APPEND) { fd, temporary in
            try io.writeAll(fd, magic + records, path: temporary)
        }
        return JournalFile(path: path, io: io, fd: fd, size: magic.count + records.count)
    }

    /// The durable bytes from `offset` (a record boundary) to the end: the framed records written since then.
    func records(from offset: Int) throws -> Data {
        var data = Data(count: size - offset)
        try data.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    throw count < 0 ? SystemError.current("pread", path) : StoreError.unavailable
                }
                done += count
            }
        }
        return data
    }

    /// Appends framed records and fsyncs: one write and one fsync.
    ///
    /// On failure the file is cut back to its last durable size, so records that were never acknowledged cannot
    /// come back at the next replay (the store refuses writes from then on either way).
    func append(_ records: Data) throws {
        do {
            try io.writeAll(fd, records, path: path)
            try io.sync(fd, path: path)
        } catch {
            _ = Glibc.ftruncate(fd, off_t(size))
            throw error
        }
        size += records.count
    }

    /// Closes the file; later appends fail.
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
