import Foundation
import Logging

/// The customizations: the in-memory table, the journal behind it, and the writes waiting to become durable.
///
/// Writers check their expected revision against the key's newest state (durable or pending), queue a record in the
/// `GroupCommit` under the lock and either wait for it to become durable or leave a completion to be called then. One
/// flusher thread writes each pending batch with the lock released, applies it to the table, wakes the waiters and
/// calls the completions (outside the lock); between batches it lets the `Compaction` start or finish. No writer
/// thread is held while its record waits. Readers only ever see durable state. After a failed write, fsync or
/// compaction, the `State` refuses writes for good.
final class CustomizationLog: @unchecked Sendable {  // Safe: every var is guarded by `condition`; see `flushing`.
    /// Latest assigned state of a key whose newest record is not durable yet.
    private struct Head {
        var revision: UInt64
        var exists: Bool
        var sequence: UInt64
    }

    let journalPath: String
    let snapshotPath: String
    private let logger: Logger
    private let condition = NSCondition()
    private let groupCommit: GroupCommit
    private let compaction: Compaction

    private var table: CustomizationTable
    private var pendingHeads: [CustomizationKey: Head] = [:]
    private var pendingClientDeletes: [String: UInt64] = [:]
    private var state = State.open
    /// A thread holds the flusher role: it alone uses the journal, also outside the lock (set under the lock).
    private var flushing = false

    /// Opens the snapshot and journal in `directory` and replays them.
    init(
        directory: String, io: FileIO, logger: Logger, compactionThreshold: Int, groupCommit: Bool = true,
        instruments: StoreInstruments = StoreInstruments()
    ) throws {
        journalPath = (directory as NSString).appendingPathComponent("customizations.journal")
        snapshotPath = (directory as NSString).appendingPathComponent("customizations.snapshot")
        self.logger = logger
        let snapshot = try SnapshotFile.read(snapshotPath, io: io, logger: logger)
        var table = snapshot?.table ?? CustomizationTable()
        let snapshotSequence = snapshot?.lastSequence ?? 0
        let opened = try JournalFile.open(
            journalPath, io: io, logger: logger, snapshotSequence: snapshotSequence, into: &table
        )
        self.table = table
        self.groupCommit = GroupCommit(
            journal: opened.journal, lastSequence: max(snapshotSequence, opened.lastSequence), batching: groupCommit,
            lock: condition, instruments: instruments
        )
        compaction = Compaction(
            snapshotPath: snapshotPath, journalPath: journalPath, io: io, logger: logger,
            threshold: compactionThreshold, lock: condition
        )
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
    /// The journal's size in bytes.
    var journalBytes: Int {
        condition.withLock { groupCommit.journalBytes }
    }

    var syncCount: Int {
        condition.withLock { groupCommit.syncCount }
    }

    /// Why writes are refused, or nil.
    var unavailableReason: String? {
        condition.withLock { state.unavailableReason }
    }

    /// Whether the client has a key holding a customization, durable or pending.
    func hasCustomizations(client: String) -> Bool {
        condition.withLock {
            table.hasCustomizations(client: client)
                || pendingHeads.contains { $0.key.client == client && $0.value.exists }
        }
    }

    /// Every durable key with its state (reset ones included), and the last version number of every deleted client.
    func contents() -> (items: [(CustomizationKey, CustomizationTable.Item)], deletedClientVersions: [String: Int]) {
        condition.withLock {
            let items = table.clients.flatMap { client, users in
                users.map { (CustomizationKey(client: client, user: $0.key), $0.value) }
            }
            return (items, table.deletedClientVersions)
        }
    }

    /// Whether any client was ever deleted (durably).
    var hasDeletedClients: Bool {
        condition.withLock { !table.deletedClientVersions.isEmpty }
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
        let sequence = try groupCommit.enqueue(.delete(key, revision: head.revision + 1))
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
        let sequence = try groupCommit.enqueue(.deleteClient(client, lastVersion: lastVersion))
        for (key, head) in pendingHeads where key.client == client {
            pendingHeads[key] = Head(revision: head.revision, exists: false, sequence: sequence)
        }
        pendingClientDeletes[client] = sequence
        try awaitDurable(sequence)
    }

    /// Compacts now and waits for it: the flusher writes what is pending, then a compaction covers every record
    /// durable by then.
    func compact() throws {
        condition.lock()
        defer { condition.unlock() }
        try checkWritable()
        let ticket = compaction.request()
        while !compaction.hasEnded(ticket) {
            try checkWritable()
            condition.wait()
        }
        try checkWritable()
    }

    /// Makes the store refuse writes from now on.
    func fail(_ reason: String) {
        condition.lock()
        enterFailure(reason)
        groupCommit.unlockAndNotify()
    }

    /// Flushes pending writes, lets a compaction under way end, and closes the journal; later writes throw
    /// `StoreError.unavailable`.
    func close() {
        condition.lock()
        defer { groupCommit.unlockAndNotify() }
        guard !state.isClosed else { return }
        state = .closed(failure: state.failure)
        condition.broadcast()
        while true {
            if flushing || compaction.isWritingSnapshot {
                condition.wait()
                continue
            }
            guard state.failure == nil, groupCommit.hasPending || compaction.isFinishDue else { break }
            flushing = true
            flushRound()
            flushing = false
            condition.broadcast()
        }
        compaction.abandon()
        groupCommit.journal.close()
    }

    // MARK: Group commit (all with the lock held)

    private func checkWritable() throws {
        if !state.isOpen { throw StoreError.unavailable }
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
        var done: GroupCommit.Completion?
        if let completion {
            done = { result in completion(result, revision) }
        }
        let sequence = try groupCommit.enqueue(.put(key, revision: revision, value: value), completion: done)
        pendingHeads[key] = Head(revision: revision, exists: true, sequence: sequence)
        return (revision, sequence)
    }

    /// Waits until the record with `sequence` is durable (the flusher writes it).
    private func awaitDurable(_ sequence: UInt64) throws {
        while groupCommit.durableSequence < sequence {
            if state.failure != nil { throw StoreError.unavailable }
            condition.wait()
        }
    }

    /// The flusher thread: takes the flusher role whenever there is a batch to write or a compaction to start or
    /// finish, until closed.
    private func runFlusher() {
        condition.lock()
        while !state.isClosed {
            let due = groupCommit.hasPending || compaction.isFinishDue || compaction.isStartRequested
            if flushing || state.failure != nil || !due {
                condition.wait()
                continue
            }
            flushing = true
            flushRound()
            if state.isOpen { compaction.startIfDue(table: table, groupCommit: groupCommit) }
            flushing = false
            condition.broadcast()
            groupCommit.unlockAndNotify()
            condition.lock()
        }
        condition.unlock()
    }

    /// Finishes a compaction whose snapshot is written, then writes the pending batch and applies it to the table.
    /// Requires the flusher role.
    private func flushRound() {
        do {
            try compaction.finishIfDue(groupCommit)
        } catch {
            enterFailure(error.reason)
            return
        }
        let records: [JournalRecord]
        do {
            records = try groupCommit.writeBatch()
        } catch {
            enterFailure("writing the customizations journal failed: \(error)")
            return
        }
        for record in records {
            apply(record)
        }
    }

    /// Applies a durable record to the table and forgets the pending heads it settles.
    private func apply(_ record: JournalRecord) {
        let sequence = record.sequence!
        table.apply(record.change)
        switch record.change {
        case .put(let key, _, _), .delete(let key, _):
            if pendingHeads[key]?.sequence == sequence { pendingHeads[key] = nil }
        case .deleteClient(let client, _):
            if pendingClientDeletes[client] == sequence { pendingClientDeletes[client] = nil }
            for (key, head) in pendingHeads where key.client == client && head.sequence == sequence {
                pendingHeads[key] = nil
            }
        }
    }

    private func enterFailure(_ reason: String) {
        guard let failed = state.failing(reason) else { return }
        state = failed
        logger.error("the store stops accepting writes", metadata: ["reason": "\(reason)"])
        groupCommit.failPending()
        pendingHeads.removeAll()
        pendingClientDeletes.removeAll()
        condition.broadcast()
    }
}
