import Foundation
import Logging

/// Compaction of the customizations, without holding up writes: once the journal passes the threshold (or
/// `CustomizationLog.compact()` asks for one), a compaction thread writes a snapshot of the table as of a batch
/// boundary (the cut) while batches keep going to the journal; when the snapshot is durable, the flusher swaps in a
/// journal holding only the records written since the cut (a copy of the journal's tail). Until then the old journal
/// still holds everything, so a crash at any point replays to the same state: records the snapshot already has are
/// skipped by sequence number.
///
/// Every member is guarded by the log's lock and requires it held. `startIfDue` and `finishIfDue` are called only by
/// the thread holding the log's flusher role, so the journal's size is a record boundary and nothing appends to it
/// while the tail is copied.
final class Compaction: @unchecked Sendable {  // Safe: every var is guarded by `lock`, which every caller holds.
    /// A compaction failed; `reason` says which step and why.
    struct Failure: Error {
        var reason: String
    }

    private enum Phase {
        /// No compaction is under way.
        case idle
        /// The compaction thread is writing a snapshot.
        case writingSnapshot
        /// The snapshot is durable; the journal records from byte offset `cut` on are the ones it lacks.
        case snapshotWritten(cut: Int)
        /// Writing the snapshot failed.
        case snapshotFailed(any Error)
    }

    private let lock: NSCondition
    private let snapshotPath: String
    private let journalPath: String
    private let io: FileIO
    private let logger: Logger
    private let threshold: Int
    private var phase = Phase.idle
    /// Compactions started, and ended (journal swapped, failed or abandoned).
    private var started = 0
    private var ended = 0
    /// A compaction is due whatever the journal's size while fewer than this many have started.
    private var requestedStarts = 0

    /// Compacts into `snapshotPath` and `journalPath` once the journal passes `threshold` bytes.
    init(snapshotPath: String, journalPath: String, io: FileIO, logger: Logger, threshold: Int, lock: NSCondition) {
        self.snapshotPath = snapshotPath
        self.journalPath = journalPath
        self.io = io
        self.logger = logger
        self.threshold = threshold
        self.lock = lock
    }

    /// Whether the snapshot thread is writing.
    var isWritingSnapshot: Bool {
        if case .writingSnapshot = phase { return true }
        return false
    }

    /// Whether a written (or failed) snapshot waits for the flusher to finish the compaction.
    var isFinishDue: Bool {
        switch phase {
        case .snapshotWritten, .snapshotFailed: true
        case .idle, .writingSnapshot: false
        }
    }

    /// Whether a requested compaction waits for the flusher to start it.
    var isStartRequested: Bool {
        guard case .idle = phase else { return false }
        return started < requestedStarts
    }

    /// Asks for a compaction that covers every record durable now: one that starts after any under way. Returns the
    /// ticket to pass to `hasEnded(_:)`.
    func request() -> Int {
        requestedStarts = max(requestedStarts, started + 1)
        lock.broadcast()
        return started + 1
    }

    /// Whether the compaction a `request()` returned `ticket` for has ended.
    func hasEnded(_ ticket: Int) -> Bool {
        ended >= ticket
    }

    /// Starts a compaction when none is under way and the journal passed the threshold or one was requested: the
    /// snapshot is `table` as of now (a copy-on-write value) and the cut the journal's current size.
    func startIfDue(table: CustomizationTable, groupCommit: GroupCommit) {
        guard case .idle = phase, isStartRequested || groupCommit.journal.size > threshold else { return }
        phase = .writingSnapshot
        started += 1
        let lastSequence = groupCommit.durableSequence
        let cut = groupCommit.journal.size
        let worker = Thread { [self] in writeSnapshot(table, lastSequence: lastSequence, cut: cut) }
        worker.name = "TabBarStore.compaction"
        worker.start()
    }

    /// Ends a compaction whose snapshot is written: swaps in a journal holding only the records after the cut, with
    /// the lock released while the tail is copied. Throws `Failure` when the snapshot or the swap failed.
    func finishIfDue(_ groupCommit: GroupCommit) throws(Failure) {
        switch phase {
        case .idle, .writingSnapshot:
            return
        case .snapshotFailed(let error):
            end()
            throw Failure(reason: "compacting the customizations failed: \(error)")
        case .snapshotWritten(let cut):
            let oldJournal = groupCommit.journal
            lock.unlock()
            let swapped = Result {
                try JournalFile.create(journalPath, io: io, records: try oldJournal.records(from: cut))
            }
            lock.lock()
            end()
            switch swapped {
            case .success(let newJournal):
                oldJournal.close()
                groupCommit.journal = newJournal
            case .failure(let error):
                throw Failure(reason: "swapping in the compacted customizations journal failed: \(error)")
            }
        }
    }

    /// Drops a finished snapshot's swap (the store stopped accepting writes); the old journal keeps holding everything.
    func abandon() {
        if isFinishDue { end() }
    }

    private func end() {
        phase = .idle
        ended += 1
        lock.broadcast()
    }

    /// The compaction thread: writes the snapshot, then leaves the journal swap to the flusher.
    private func writeSnapshot(_ snapshot: CustomizationTable, lastSequence: UInt64, cut: Int) {
        let written = Result { try SnapshotFile.write(snapshot, lastSequence: lastSequence, to: snapshotPath, io: io) }
        lock.lock()
        defer { lock.unlock() }
        switch written {
        case .success:
            phase = .snapshotWritten(cut: cut)
            logger.info(
                "compacted customizations",
                metadata: ["keys": "\(snapshot.keyCount)", "lastSequence": "\(lastSequence)"]
            )
        case .failure(let error):
            phase = .snapshotFailed(error)
        }
        lock.broadcast()
    }
}
