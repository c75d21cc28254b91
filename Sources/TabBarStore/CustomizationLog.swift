import Foundation
import Logging

/// The customizations: the in-memory table, the journal behind it, group commit and compaction.
///
/// Writers enqueue an encoded record under the lock and either wait for it to become durable or leave a completion
/// to be called then. One flusher thread takes the whole pending batch, releases the lock, writes and fsyncs it once,
/// re-locks, applies the batch to the table, wakes the waiters and calls the completions (outside the lock). No writer
/// thread is held while its record waits. Readers only ever see durable state.
///
/// Compaction does not hold up writes: once the journal passes the threshold, a compaction thread writes a snapshot
/// of the table as of that moment while batches keep going to the journal; when the snapshot is durable, the flusher
/// swaps in a journal holding only the records written since (a copy of the journal's tail). Until then the old
/// journal still holds everything, so a crash at any point replays to the same state.
final class CustomizationLog: @unchecked Sendable {  // Safe: all vars are guarded by `condition`; see `journal`.
    /// Called once with the outcome of an asynchronous write: success once durable, or the error that refused it.
    typealias Completion = @Sendable (Result<Void, any Error>) -> Void

    /// Latest assigned state of a key whose newest record is not durable yet.
    private struct Head {
        var revision: UInt64
        var exists: Bool
        var sequence: UInt64
    }

    private struct Pending {
        var record: JournalRecord
        var frame: Data
        var completion: Completion?
    }

    let journalPath: String
    let snapshotPath: String
    private let io: FileIO
    private let logger: Logger
    private let compactionThreshold: Int
    private let groupCommit: Bool
    private let condition = NSCondition()

    private var table: CustomizationTable
    /// Used outside the lock only by the thread holding the flushing role (`flushing == true`, set under the lock).
    private var journal: JournalFile
    private var pending: [Pending] = []
    private var pendingHeads: [CustomizationKey: Head] = [:]
    private var pendingClientDeletes: [String: UInt64] = [:]
    private var nextSequence: UInt64
    private var durableSequence: UInt64
    private var flushing = false
    /// The compaction thread is writing a snapshot.
    private var snapshotWriting = false
    /// Set when that snapshot is durable: the journal offset from which the records it lacks start.
    private var journalCut: Int?
    private var failure: String?
    private var closed = false
    private var syncs = 0
    /// Completions whose outcome is known, to be called by whoever next releases the lock through `unlockAndNotify`.
    private var finished: [() -> Void] = []

    /// Opens the snapshot and journal in `directory` and replays them.
    init(directory: String, io: FileIO, logger: Logger, compactionThreshold: Int, groupCommit: Bool = true) throws {
        journalPath = (directory as NSString).appendingPathComponent("customizations.journal")
        snapshotPath = (directory as NSString).appendingPathComponent("customizations.snapshot")
        self.io = io
        self.logger = logger
        self.compactionThreshold = compactionThreshold
        self.groupCommit = groupCommit
        let snapshot = try SnapshotFile.read(snapshotPath, io: io, logger: logger)
        var table = snapshot?.table ?? CustomizationTable()
        let snapshotSequence = snapshot?.lastSequence ?? 0
        let opened = try JournalFile.open(
            journalPath, io: io, logger: logger, snapshotSequence: snapshotSequence, into: &table
        )
        self.table = table
        journal = opened.journal
        durableSequence = max(snapshotSequence, opened.lastSequence)
        nextSequence = durableSequence + 1
        let flusher = Thread { [self] in runFlusher() }
        flusher.name = "TabBarStore.flusher"
        flusher.start()
    }

    // MARK: Reads

    /// The durable entry of a key.
    func entry(_ key: CustomizationKey) -> CustomizationEntry? {
        condition.withLock { table.entry(key) }
    }

    /// The durable revision of a key, counting reset keys (0 when never saved).
    func revision(_ key: CustomizationKey) -> UInt64 {
        condition.withLock { table.item(key)?.revision ?? 0 }
    }

    /// Number of keys holding a customization.
    var liveCount: Int {
        condition.withLock { table.liveCount }
    }

    /// Number of journal fsyncs done for customization writes.
    var syncCount: Int {
        condition.withLock { syncs }
    }

    /// Why writes are refused, or nil.
    var unavailableReason: String? {
        condition.withLock { failure ?? (closed ? "the store is closed" : nil) }
    }

    /// Whether the client has a key holding a customization, durable or pending.
    func hasCustomizations(client: String) -> Bool {
        condition.withLock {
            table.hasCustomizations(client: client)
                || pendingHeads.contains { $0.key.client == client && $0.value.exists }
        }
    }

    /// The newest version number the client had when it was last deleted (durably), or nil.
    func lastDeletedVersion(client: String) -> Int? {
        condition.withLock { table.deletedClientVersions[client] }
    }

    // MARK: Writes

    /// Saves a customization; see `TabBarStore.saveCustomization`.
    func save(_ key: CustomizationKey, _ value: StoredCustomization, expectedRevision: UInt64?) throws
        -> CustomizationEntry
    {
        condition.lock()
        defer { condition.unlock() }
        let (revision, sequence) = try enqueuePut(key, value, expectedRevision: expectedRevision, completion: nil)
        try awaitDurable(sequence)
        return CustomizationEntry(revision: revision, value: value)
    }

    /// Saves a customization without waiting: `completion` gets the entry once it is durable, or the error (also
    /// `StoreError.revisionMismatch`, at once). It runs on the flusher thread or, for an immediate refusal, on the
    /// caller's; it must not block.
    func save(
        _ key: CustomizationKey, _ value: StoredCustomization, expectedRevision: UInt64?,
        completion: @escaping @Sendable (Result<CustomizationEntry, any Error>) -> Void
    ) {
        condition.lock()
        do {
            _ = try enqueuePut(key, value, expectedRevision: expectedRevision) { result, revision in
                completion(result.map { CustomizationEntry(revision: revision, value: value) })
            }
            condition.unlock()
        } catch {
            condition.unlock()
            completion(.failure(error))
        }
    }

    /// Resets a customization; returns whether one existed.
    func delete(_ key: CustomizationKey) throws -> Bool {
        condition.lock()
        defer { condition.unlock() }
        try checkWritable()
        let head = currentHead(key)
        guard head.exists else {
            if let sequence = head.pendingSequence { try awaitDurable(sequence) }
            return false
        }
        let sequence = try enqueue(.delete(key, revision: head.revision + 1))
        pendingHeads[key] = Head(revision: head.revision + 1, exists: false, sequence: sequence)
        try awaitDurable(sequence)
        return true
    }

    /// Durably records that every customization of the client is reset (each key keeping its revision) and that
    /// the client's newest version number was `lastVersion`.
    func deleteClient(_ client: String, lastVersion: Int?) throws {
        condition.lock()
        defer { condition.unlock() }
        try checkWritable()
        let sequence = try enqueue(.deleteClient(client, lastVersion: lastVersion))
        for (key, head) in pendingHeads where key.client == client {
            pendingHeads[key] = Head(revision: head.revision, exists: false, sequence: sequence)
        }
        pendingClientDeletes[client] = sequence
        try awaitDurable(sequence)
    }

    /// Compacts now: flushes what is pending, writes a snapshot, starts a new journal.
    func compact() throws {
        condition.lock()
        defer { unlockAndNotify() }
        while flushing || snapshotWriting || journalCut != nil {
            try checkWritable()
            condition.wait()
        }
        try checkWritable()
        flushing = true
        defer {
            flushing = false
            condition.broadcast()
        }
        flushBatch(compactAfterwards: false)
        if failure == nil { compactLocked() }
        if failure != nil { throw StoreError.unavailable }
    }

    /// Makes the store refuse writes from now on.
    func fail(_ reason: String) {
        condition.lock()
        enterFailure(reason)
        unlockAndNotify()
    }

    /// Flushes pending writes and closes the journal; later writes throw `StoreError.unavailable`.
    func close() {
        condition.lock()
        defer { unlockAndNotify() }
        guard !closed else { return }
        closed = true
        condition.broadcast()
        while true {
            if flushing || snapshotWriting {
                condition.wait()
                continue
            }
            if pending.isEmpty && (journalCut == nil || failure != nil) { break }
            flushing = true
            swapJournalIfDue()
            flushBatch(compactAfterwards: false)
            flushing = false
            condition.broadcast()
        }
        journalCut = nil
        condition.broadcast()
        journal.close()
    }

    // MARK: Group commit (all with the lock held)

    private func checkWritable() throws {
        if closed || failure != nil { throw StoreError.unavailable }
    }

    private func currentHead(_ key: CustomizationKey) -> (revision: UInt64, exists: Bool, pendingSequence: UInt64?) {
        if let head = pendingHeads[key] {
            return (head.revision, head.exists, head.sequence)
        }
        if let sequence = pendingClientDeletes[key.client] {
            return (table.item(key)?.revision ?? 0, false, sequence)
        }
        guard let item = table.item(key) else { return (0, false, nil) }
        return (item.revision, item.slot != .reset, nil)
    }

    /// Checks the expected revision against the key's newest (pending or durable) state and queues the put with the
    /// next revision; `completion`, if any, gets the outcome and that revision once known.
    private func enqueuePut(
        _ key: CustomizationKey, _ value: StoredCustomization, expectedRevision: UInt64?,
        completion: (@Sendable (Result<Void, any Error>, UInt64) -> Void)?
    ) throws -> (revision: UInt64, sequence: UInt64) {
        try checkWritable()
        let head = currentHead(key)
        if let expectedRevision, expectedRevision != (head.exists ? head.revision : 0) {
            throw StoreError.revisionMismatch
        }
        let revision = head.revision + 1
        var done: Completion?
        if let completion {
            done = { result in completion(result, revision) }
        }
        let sequence = try enqueue(.put(key, revision: revision, value: value), completion: done)
        pendingHeads[key] = Head(revision: revision, exists: true, sequence: sequence)
        return (revision, sequence)
    }

    /// Encodes and queues a record with the next sequence number, waking the flusher; returns that number.
    private func enqueue(_ change: JournalRecord.Change, completion: Completion? = nil) throws -> UInt64 {
        let record = JournalRecord(sequence: nextSequence, change: change)
        let payload = record.json()
        guard payload.count <= RecordFraming.maxPayload else { throw StoreError.recordTooLarge }
        var frame = Data()
        RecordFraming.append(payload, to: &frame)
        pending.append(Pending(record: record, frame: frame, completion: completion))
        nextSequence += 1
        condition.broadcast()
        return record.sequence!
    }

    /// Waits until the record with `sequence` is durable (the flusher writes it).
    private func awaitDurable(_ sequence: UInt64) throws {
        while durableSequence < sequence {
            if failure != nil { throw StoreError.unavailable }
            condition.wait()
        }
    }

    /// Releases the lock, then calls the completions whose outcome became known while it was held.
    private func unlockAndNotify() {
        let ready = finished
        finished.removeAll()
        condition.unlock()
        for notify in ready { notify() }
    }

    /// The flusher thread: writes each pending batch while nobody else holds the flushing role, until closed.
    private func runFlusher() {
        condition.lock()
        while true {
            if closed && !flushing { break }
            if flushing || failure != nil || (pending.isEmpty && journalCut == nil) {
                condition.wait()
                continue
            }
            flushing = true
            swapJournalIfDue()
            flushBatch(compactAfterwards: true)
            flushing = false
            condition.broadcast()
            unlockAndNotify()
            condition.lock()
        }
        condition.unlock()
    }

    /// Writes and fsyncs every pending record as one batch (only the oldest one without group commit), then applies
    /// them. Requires the flushing role.
    private func flushBatch(compactAfterwards: Bool) {
        guard !pending.isEmpty, failure == nil else { return }
        let batch = groupCommit ? pending : [pending[0]]
        pending.removeFirst(batch.count)
        var bytes = Data()
        bytes.reserveCapacity(batch.reduce(0) { $0 + $1.frame.count })
        for item in batch { bytes.append(item.frame) }
        let journal = self.journal
        condition.unlock()
        var writeError: (any Error)?
        do {
            try journal.append(bytes)
        } catch {
            writeError = error
        }
        condition.lock()
        if let writeError {
            let failed = batch.compactMap(\.completion)
            finished += failed.map { completion in { completion(.failure(StoreError.unavailable)) } }
            enterFailure("writing the customizations journal failed: \(writeError)")
            return
        }
        syncs += 1
        for item in batch {
            if let completion = item.completion {
                finished.append { completion(.success(())) }
            }
            let sequence = item.record.sequence!
            table.apply(item.record.change)
            switch item.record.change {
            case .put(let key, _, _), .delete(let key, _):
                if pendingHeads[key]?.sequence == sequence { pendingHeads[key] = nil }
            case .deleteClient(let client, _):
                if pendingClientDeletes[client] == sequence { pendingClientDeletes[client] = nil }
                for (key, head) in pendingHeads where key.client == client && head.sequence == sequence {
                    pendingHeads[key] = nil
                }
            }
        }
        durableSequence = batch.last!.record.sequence!
        condition.broadcast()
        if compactAfterwards, !snapshotWriting, journalCut == nil, journal.size > compactionThreshold {
            startCompaction()
        }
    }

    /// Takes the snapshot (the table as of now, a copy-on-write value) and has a compaction thread write it.
    /// Requires the flushing role, so the journal's current size is exactly where the records it lacks will start.
    private func startCompaction() {
        snapshotWriting = true
        let snapshot = table
        let lastSequence = durableSequence
        let cut = journal.size
        let worker = Thread { [self] in writeSnapshot(snapshot, lastSequence: lastSequence, cut: cut) }
        worker.name = "TabBarStore.compaction"
        worker.start()
    }

    /// The compaction thread: writes the snapshot, then leaves the journal swap to the flusher.
    private func writeSnapshot(_ snapshot: CustomizationTable, lastSequence: UInt64, cut: Int) {
        var writeError: (any Error)?
        do {
            try SnapshotFile.write(snapshot, lastSequence: lastSequence, to: snapshotPath, io: io)
        } catch {
            writeError = error
        }
        condition.lock()
        snapshotWriting = false
        if let writeError {
            enterFailure("compacting the customizations failed: \(writeError)")
        } else {
            journalCut = cut
            logger.info(
                "compacted customizations",
                metadata: ["keys": "\(snapshot.keyCount)", "lastSequence": "\(lastSequence)"]
            )
        }
        condition.broadcast()
        unlockAndNotify()
    }

    /// Swaps in a journal holding only the records after the compaction's cut, once its snapshot is durable; the
    /// lock is released while the tail is copied. Requires the flushing role.
    private func swapJournalIfDue() {
        guard let cut = journalCut, failure == nil else { return }
        journalCut = nil
        let oldJournal = journal
        condition.unlock()
        let result = Result { try JournalFile.create(journalPath, io: io, records: try oldJournal.records(from: cut)) }
        condition.lock()
        switch result {
        case .success(let newJournal):
            oldJournal.close()
            journal = newJournal
        case .failure(let error):
            enterFailure("swapping in the compacted customizations journal failed: \(error)")
        }
        condition.broadcast()
    }

    /// Writes a snapshot of the durable state and swaps in an empty journal, with the lock released during I/O.
    /// Requires the flushing role, so no batch is written meanwhile and the old journal holds exactly what the
    /// snapshot covers: a crash between the two renames replays records the snapshot already has, which is a no-op.
    private func compactLocked() {
        let snapshot = table
        let lastSequence = durableSequence
        let oldJournal = journal
        condition.unlock()
        var result: Result<JournalFile, any Error>
        do {
            try SnapshotFile.write(snapshot, lastSequence: lastSequence, to: snapshotPath, io: io)
            result = .success(try JournalFile.create(journalPath, io: io))
        } catch {
            result = .failure(error)
        }
        condition.lock()
        switch result {
        case .success(let newJournal):
            oldJournal.close()
            journal = newJournal
            logger.info(
                "compacted customizations",
                metadata: ["keys": "\(snapshot.keyCount)", "lastSequence": "\(lastSequence)"]
            )
        case .failure(let error):
            enterFailure("compacting the customizations failed: \(error)")
        }
    }

    private func enterFailure(_ reason: String) {
        guard failure == nil else { return }
        failure = reason
        logger.error("the store stops accepting writes", metadata: ["reason": "\(reason)"])
        for item in pending {
            if let completion = item.completion {
                finished.append { completion(.failure(StoreError.unavailable)) }
            }
        }
        pending.removeAll()
        pendingHeads.removeAll()
        pendingClientDeletes.removeAll()
        condition.broadcast()
    }
}
