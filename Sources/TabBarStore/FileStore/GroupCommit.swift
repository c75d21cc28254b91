import Foundation

/// Group commit for the customizations journal: writers queue encoded records, and one write and one fsync make a
/// whole batch durable (only the oldest queued record when batching is off). A record's completion is called with
/// success only after that fsync; when the write or the fsync fails, the batch's completions get
/// `StoreError.unavailable` and the error goes to the caller, which stops the store.
///
/// Every member is guarded by the log's lock and requires it held. `writeBatch` releases the lock during the write,
/// so it is called only by the thread holding the log's flusher role, the one user of `journal` outside the lock.
final class GroupCommit: @unchecked Sendable {  // Safe: every var is guarded by `lock`, which every caller holds.
    /// Called once with the outcome of a queued record: success once durable, or the error that refused it.
    typealias Completion = @Sendable (Result<Void, any Error>) -> Void

    private struct Pending {
        var record: JournalRecord
        var frame: Data
        var completion: Completion?
    }

    private let lock: NSCondition
    private let batching: Bool
    /// The journal batches are appended to; a compaction swaps in a shorter one.
    var journal: AppendOnlyFile {
        didSet { journalBytes = journal.size }
    }
    /// The journal's size in bytes as of the last batch written (read under the lock: the flusher appends outside it).
    private(set) var journalBytes: Int
    /// What the commits are reported to.
    private let instruments: StoreInstruments
    private var pending: [Pending] = []
    private var nextSequence: UInt64
    /// The sequence number of the newest durable record.
    private(set) var durableSequence: UInt64
    /// Journal fsyncs done.
    private(set) var syncCount = 0
    /// Completion calls whose outcome is known, made by `unlockAndNotify` once the lock is released.
    private var finished: [() -> Void] = []

    /// Writes to `journal`, whose newest record has `lastSequence`; `batching` false gives every record its own fsync.
    init(
        journal: AppendOnlyFile, lastSequence: UInt64, batching: Bool, lock: NSCondition,
        instruments: StoreInstruments = StoreInstruments()
    ) {
        self.journal = journal
        journalBytes = journal.size
        self.instruments = instruments
        self.batching = batching
        self.lock = lock
        durableSequence = lastSequence
        nextSequence = lastSequence + 1
    }

    /// Whether records wait to be written.
    var hasPending: Bool {
        !pending.isEmpty
    }

    /// Encodes and queues a record with the next sequence number, waking the flusher; returns that number.
    func enqueue(_ change: JournalRecord.Change, completion: Completion? = nil) throws -> UInt64 {
        let record = JournalRecord(sequence: nextSequence, change: change)
        let payload = record.json()
        guard payload.count <= RecordFraming.maxPayload else { throw StoreError.recordTooLarge }
        var frame = Data()
        RecordFraming.append(payload, to: &frame)
        pending.append(Pending(record: record, frame: frame, completion: completion))
        nextSequence += 1
        lock.broadcast()
        return record.sequence!
    }

    /// Appends the queued batch to the journal with one write and one fsync, the lock released meanwhile, and returns
    /// its records, now durable, in order; their completions are queued with success. Throws what the write or fsync
    /// threw, with the batch's completions queued with `StoreError.unavailable`.
    func writeBatch() throws -> [JournalRecord] {
        guard !pending.isEmpty else { return [] }
        let batch = batching ? pending : [pending[0]]
        pending.removeFirst(batch.count)
        var bytes = Data()
        bytes.reserveCapacity(batch.reduce(0) { $0 + $1.frame.count })
        for item in batch { bytes.append(item.frame) }
        let journal = self.journal
        lock.unlock()
        let started = ContinuousClock.now
        let written = Result { try journal.append(bytes) }
        instruments.commitFinished(duration: ContinuousClock.now - started, batchSize: batch.count)
        lock.lock()
        journalBytes = journal.size
        if case .failure(let error) = written {
            finish(batch, with: .failure(StoreError.unavailable))
            throw error
        }
        syncCount += 1
        finish(batch, with: .success(()))
        durableSequence = batch.last!.record.sequence!
        lock.broadcast()
        return batch.map(\.record)
    }

    /// Drops every queued record, its completion getting `StoreError.unavailable`.
    func failPending() {
        finish(pending, with: .failure(StoreError.unavailable))
        pending.removeAll()
    }

    /// Releases the lock, then makes the completion calls whose outcome became known while it was held.
    func unlockAndNotify() {
        let ready = finished
        finished.removeAll()
        lock.unlock()
        for notify in ready { notify() }
    }

    private func finish(_ items: [Pending], with outcome: Result<Void, any Error>) {
        for item in items {
            if let completion = item.completion {
                finished.append { completion(outcome) }
            }
        }
    }
}
