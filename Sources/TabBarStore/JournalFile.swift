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
    /// snapshot already holds (sequence ≤ `snapshotSequence`). Truncates a torn tail with a warning; throws
    /// `StoreOpenError` naming the file and byte offset for corruption before the tail.
    /// Returns the journal and the highest sequence number it holds.
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
            if data.count < magic.count {
                guard magic.starts(with: data) || data.allSatisfy({ $0 == 0 }) else {
                    throw StoreOpenError("\(path): corrupt record at byte offset 0 (bad journal header)")
                }
                logger.warning(
                    "rewriting the torn header of \(path) at byte offset 0",
                    metadata: ["file": "\(path)", "offset": "0"]
                )
                try io.truncate(fd, to: 0, path: path)
                try io.writeAll(fd, magic, path: path)
                try io.sync(fd, path: path)
                return (JournalFile(path: path, io: io, fd: fd, size: magic.count), 0)
            }
            guard data.starts(with: magic) else {
                throw StoreOpenError("\(path): corrupt record at byte offset 0 (bad journal header)")
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
                        "\(path): corrupt record at byte offset \(frame.offset) (undecodable payload: \(error))"
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
            case .tornTail(let offset):
                let dropped = data.count - offset
                logger.warning(
                    "truncating the torn tail of \(path) at byte offset \(offset) (\(dropped) bytes dropped)",
                    metadata: ["file": "\(path)", "offset": "\(offset)", "droppedBytes": "\(dropped)"]
                )
                try io.truncate(fd, to: offset, path: path)
                return (JournalFile(path: path, io: io, fd: fd, size: offset), lastSequence)
            case .corrupt(let offset, let reason):
                throw StoreOpenError("\(path): corrupt record at byte offset \(offset) (\(reason))")
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// Creates a journal at `path` holding `records` (framed, as ``append(_:)`` takes them), replacing any existing
    /// one, through temp file, fsync, rename and directory fsync.
    static func create(_ path: String, io: FileIO, records: Data = Data()) throws -> JournalFile {
        let temporary = io.temporaryPath(for: path)
        let fd = try io.open(temporary, O_RDWR | O_CREAT | O_EXCL | O_APPEND)
        do {
            try io.writeAll(fd, magic + records, path: temporary)
            try io.sync(fd, path: temporary)
            try io.rename(temporary, path)
            try io.syncDirectory((path as NSString).deletingLastPathComponent)
        } catch {
            Glibc.close(fd)
            Glibc.unlink(temporary)
            throw error
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
