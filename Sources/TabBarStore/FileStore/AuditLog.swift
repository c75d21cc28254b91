import Foundation
import Logging
import Synchronization
import TabBarModel

/// The file store's audit log, `<data>/audit.log`: the magic `TCAUDIT1`, then one framed record (`RecordFraming`) per
/// entry, its payload the entry's JSON. Every entry is also kept in memory, for `auditEntries`: there is one per config
/// change and each is a few hundred bytes.
///
/// Entries are written ahead of their change: `append` writes and fsyncs the record, the store makes the change, and
/// then `commit`s the entry (readers see it from then on) or, when the change failed, `cut`s it from the file again.
/// The file is created by the first append. The store's config writes call these one at a time.
final class AuditLog: Sendable {
    static let magic = Data("TCAUDIT1".utf8)
    /// The file's name in the data directory.
    static let fileName = "audit.log"

    let path: String
    private let io: FileIO
    private let logger: Logger
    /// The open file; nil until the first entry is written.
    private let file: Mutex<AppendOnlyFile?>
    /// Every entry, ascending by sequence.
    private let entries: Mutex<[AuditEntry]>

    /// Opens the audit log in `directory` (there may be none yet) and reads its entries.
    ///
    /// A torn tail is moved to a side file and corruption in the middle refused, as `AppendOnlyFile.open` says. Then
    /// the last entry is reconciled with the store: when `happened` says its change is not in the store (a crash came
    /// between the entry and its change), the entry is moved to a side file and cut, with a warning. Only the last
    /// entry can be such: changes are made one at a time, each after its entry, and the store stops taking writes at
    /// the first one that fails.
    init(directory: String, io: FileIO, logger: Logger, happened: (AuditEntry) -> Bool) throws {
        let path = (directory as NSString).appendingPathComponent(Self.fileName)
        self.path = path
        self.io = io
        self.logger = logger
        guard io.exists(path) else {
            file = Mutex(nil)
            entries = Mutex([])
            return
        }
        var read: [AuditEntry] = []
        var lastOffset = 0
        let decoder = Self.decoder()
        let opened = try AppendOnlyFile.open(path, magic: Self.magic, noun: "audit log", io: io, logger: logger) {
            offset, payload in
            read.append(try decoder.decode(AuditEntry.self, from: Data(payload)))
            lastOffset = offset
        }
        if let last = read.last, !happened(last) {
            let side: String
            do {
                side = try SideFile.write(try opened.records(from: lastOffset), from: path, at: lastOffset, io: io)
                try opened.truncate(to: lastOffset)
            } catch {
                throw StoreOpenError("cannot move the dangling last entry of \(path) aside: \(error)")
            }
            read.removeLast()
            let message =
                "cut the last entry of \(path) at byte offset \(lastOffset): its change (\(last.action.rawValue) of "
                + "\(last.client), version \(last.version)) is not in the store; the entry was moved to \(side)"
            logger.warning(
                "\(message)", metadata: ["file": "\(path)", "offset": "\(lastOffset)", "sideFile": "\(side)"])
        }
        file = Mutex(opened)
        entries = Mutex(read)
    }

    /// The sequence number the next entry takes: one past the newest.
    var nextSequence: Int {
        entries.withLock { ($0.last?.sequence ?? 0) + 1 }
    }

    /// The entries `query` selects, oldest first.
    func entries(_ query: AuditQuery) -> [AuditEntry] {
        guard query.limit > 0 else { return [] }
        return entries.withLock { entries in
            var selected: [AuditEntry] = []
            for entry in entries where query.matches(entry) {
                selected.append(entry)
                if selected.count == query.limit { break }
            }
            return selected
        }
    }

    /// Every entry, oldest first.
    var all: [AuditEntry] {
        entries.withLock { $0 }
    }

    /// The framed record of `entry`; throws `StoreError.recordTooLarge` when its JSON exceeds the record limit.
    static func record(_ entry: AuditEntry) throws -> Data {
        let payload = try encoder().encode(entry)
        guard payload.count <= RecordFraming.maxPayload else { throw StoreError.recordTooLarge }
        var record = Data()
        RecordFraming.append(payload, to: &record)
        return record
    }

    /// Appends a framed record (``record(_:)``) and fsyncs it, creating the file with it when there is none yet;
    /// returns the offset it starts at, for `cut(at:)`.
    func append(_ record: Data) throws -> Int {
        try file.withLock { file in
            if let file {
                let offset = file.size
                try file.append(record)
                return offset
            }
            file = try AppendOnlyFile.create(path, magic: Self.magic, io: io, records: record)
            return Self.magic.count
        }
    }

    /// Makes an appended entry visible to readers, once its change is made.
    func commit(_ entry: AuditEntry) {
        entries.withLock { $0.append(entry) }
    }

    /// Cuts the file back to `offset`, dropping the entry appended there, whose change failed. Best effort: the store
    /// has stopped taking writes, and an entry left behind is cut at the next open, which does not find its change.
    func cut(at offset: Int) {
        file.withLock { file in
            do {
                try file?.truncate(to: offset)
            } catch {
                logger.error(
                    "cannot cut the entry of a failed change from the audit log; the next open cuts it",
                    metadata: ["file": "\(path)", "offset": "\(offset)", "error": "\(error)"])
            }
        }
    }

    /// Closes the file; later appends fail.
    func close() {
        file.withLock { $0?.close() }
    }

    /// How entries are encoded: the project's JSON, dates as version files store them.
    private static func encoder() -> JSONEncoder {
        let encoder = CanonicalJSON.makeEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(VersionFile.format(date))
        }
        return encoder
    }

    /// How entries are read back: the dates `encoder()` writes.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = VersionFile.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a timestamp: \(text)")
            }
            return date
        }
        return decoder
    }
}
