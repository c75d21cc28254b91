import Foundation
import Logging

/// The append-only customization journal: the magic `TCJOURN1`, then framed `JournalRecord` payloads, in an
/// `AppendOnlyFile`.
enum JournalFile {
    static let magic = Data("TCJOURN1".utf8)

    /// Opens the journal at `path` (creating it when missing) and replays it into `table`, skipping records the
    /// snapshot already holds (sequence ≤ `snapshotSequence`). Returns the journal and the highest sequence it holds.
    /// Damage is recovered or refused as `AppendOnlyFile.open` says; a record whose checksums hold but whose payload
    /// is not a journal record refuses.
    static func open(
        _ path: String, io: FileIO, logger: Logger, snapshotSequence: UInt64, into table: inout CustomizationTable
    ) throws -> (journal: AppendOnlyFile, lastSequence: UInt64) {
        guard io.exists(path) else {
            return (try create(path, io: io), 0)
        }
        var lastSequence: UInt64 = 0
        let decoder = JSONDecoder()
        let journal = try AppendOnlyFile.open(path, magic: magic, noun: "journal", io: io, logger: logger) { _, payload in
            let record = try JournalRecord.decode(json: payload, decoder: decoder)
            if let sequence = record.sequence {
                lastSequence = max(lastSequence, sequence)
                if sequence <= snapshotSequence { return }
            }
            table.apply(record.change)
        }
        return (journal, lastSequence)
    }

    /// Creates a journal at `path` holding `records` (framed), replacing any existing one, atomically.
    static func create(_ path: String, io: FileIO, records: Data = Data()) throws -> AppendOnlyFile {
        try AppendOnlyFile.create(path, magic: magic, io: io, records: records)
    }
}
