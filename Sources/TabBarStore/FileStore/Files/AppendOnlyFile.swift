import Foundation
import Glibc
import Logging

/// An append-only file of framed records (`RecordFraming`) after a magic header: the customization journal
/// (`JournalFile`) and the audit log (`AuditLog`). Opening it recovers a torn tail and refuses corruption in the
/// middle; every append is fsynced.
///
/// Not thread-safe: its owner serializes every use.
final class AppendOnlyFile {
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

    /// Opens the existing file at `path`, whose header is `magic`, and calls `visit` with each valid record's offset
    /// and payload, in order. `noun` names the file in messages ("journal").
    ///
    /// Damage is judged by what follows it. When no valid record follows, it is a torn tail: the dropped bytes go to a
    /// side file (durably) first, then the file is truncated at the damage and a warning names the file, offset and
    /// byte count. When a valid record follows, it is corruption in the middle: nothing is changed and a
    /// `StoreOpenError` names the file, the offset, how many valid records follow and the repair command. A record
    /// whose checksums hold but whose payload `visit` cannot read (it throws) also refuses (it was written whole).
    static func open(
        _ path: String, magic: Data, noun: String, io: FileIO, logger: Logger,
        visit: (_ offset: Int, _ payload: UnsafeRawBufferPointer) throws -> Void
    ) throws -> AppendOnlyFile {
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
                return AppendOnlyFile(path: path, io: io, fd: fd, size: magic.count)
            }
            guard data.starts(with: magic) else {
                let damage = RecordFraming.Damage(
                    offset: 0, reason: "bad \(noun) header",
                    nextValid: RecordFraming.firstValidRecord(in: data, from: 1)
                )
                try recoverOrRefuse(damage, path: path, noun: noun, fd: fd, data: data, io: io, logger: logger)
                try io.writeAll(fd, magic, path: path)
                try io.sync(fd, path: path)
                return AppendOnlyFile(path: path, io: io, fd: fd, size: magic.count)
            }
            let outcome = try RecordFraming.scan(data, from: magic.count) { frame in
                mapped.discard(before: frame.offset)
                do {
                    try visit(frame.offset, UnsafeRawBufferPointer(rebasing: data[frame.payload]))
                } catch {
                    throw StoreOpenError(
                        "\(path): corrupt record at byte offset \(frame.offset) (undecodable payload: \(error)). "
                            + StoreRecovery.repairAdvice(dataDirectory: (path as NSString).deletingLastPathComponent)
                    )
                }
            }
            switch outcome {
            case .clean:
                return AppendOnlyFile(path: path, io: io, fd: fd, size: data.count)
            case .damaged(let damage):
                try recoverOrRefuse(damage, path: path, noun: noun, fd: fd, data: data, io: io, logger: logger)
                return AppendOnlyFile(path: path, io: io, fd: fd, size: damage.offset)
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// For a torn tail: moves the bytes from the damage to the end into a side file, then truncates the file there.
    /// For damage with a valid record after it: throws.
    private static func recoverOrRefuse(
        _ damage: RecordFraming.Damage, path: String, noun: String, fd: Int32, data: UnsafeRawBufferPointer,
        io: FileIO, logger: Logger
    ) throws {
        if let next = damage.nextValid {
            let following = RecordFraming.validRecordCount(in: data, from: next)
            throw StoreOpenError(
                "\(path): corrupt record at byte offset \(damage.offset) (\(damage.reason)); "
                    + "\(following) valid record\(following == 1 ? "" : "s") follow\(following == 1 ? "s" : "") it "
                    + "(the first at byte offset \(next)), so this is not a torn tail and the \(noun) was left as it "
                    + "is. " + StoreRecovery.repairAdvice(dataDirectory: (path as NSString).deletingLastPathComponent)
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

    /// Creates a file at `path` holding `magic` and `records` (framed, as ``append(_:)`` takes them), replacing any
    /// existing one, through temp file, fsync, rename and directory fsync.
    static func create(_ path: String, magic: Data, io: FileIO, records: Data = Data()) throws -> AppendOnlyFile {
        let fd = try io.createAtomically(path, flags: O_RDWR | O_APPEND) { fd, temporary in
            try io.writeAll(fd, magic + records, path: temporary)
        }
        return AppendOnlyFile(path: path, io: io, fd: fd, size: magic.count + records.count)
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

    /// Cuts the file back to `offset` (a record boundary), durably: the records after it are gone.
    func truncate(to offset: Int) throws {
        try io.truncate(fd, to: offset, path: path)
        size = offset
    }

    /// Closes the file; later appends fail.
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
