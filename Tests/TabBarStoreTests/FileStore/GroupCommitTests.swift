import Foundation
import Synchronization
import Testing
import TestSupport
@testable import TabBarStore

@Suite("group commit")
struct GroupCommitTests {
    private static let threads = 16
    private static let savesPerThread = 50

    private static func user(thread: Int, save: Int) -> String {
        save.isMultiple(of: 10) ? "shared" : "u\(thread)-\(save % 3)"
    }

    private static func value(thread: Int, save: Int) -> StoredCustomization {
        StoredCustomization(order: ["t\(thread)", "s\(save)"], hidden: [])
    }

    @Test("16 threads × 50 saves are all durable, with fewer fsyncs than writes")
    func concurrentSaves() throws {
        let directory = try TemporaryDirectory("group-commit")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        let failures = Mutex<[String]>([])
        let lastRevisions = Mutex<[String: [UInt64]]>([:])
        _ = Concurrently.run(Self.threads) { thread in
            var previous: [String: UInt64] = [:]
            for save in 0..<Self.savesPerThread {
                let user = Self.user(thread: thread, save: save)
                do {
                    let entry = try store.saveCustomization(
                        client: "c1", user: user, Self.value(thread: thread, save: save), expectedRevision: nil
                    )
                    if let earlier = previous[user], entry.revision <= earlier {
                        failures.withLock { $0.append("\(user): revision \(entry.revision) after \(earlier)") }
                    }
                    previous[user] = entry.revision
                    if user == "shared" {
                        lastRevisions.withLock { $0["shared", default: []].append(entry.revision) }
                    }
                } catch {
                    failures.withLock { $0.append("\(user): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let writes = Self.threads * Self.savesPerThread
        let syncs = store.syncCount
        #expect(syncs < writes, "group commit batched \(writes) writes into \(syncs) fsyncs")
        let sharedRevisions = lastRevisions.withLock { $0["shared"] ?? [] }
        #expect(sharedRevisions.sorted() == Array(1...UInt64(Self.threads * Self.savesPerThread / 10)))
        store.close()

        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(reopened.customizationCount == Self.threads * 3 + 1)
        for thread in 0..<Self.threads {
            for key in 0..<3 {
                let user = "u\(thread)-\(key)"
                let saves = (0..<Self.savesPerThread).filter { Self.user(thread: thread, save: $0) == user }
                let entry = reopened.customization(client: "c1", user: user)
                #expect(
                    entry == CustomizationEntry(
                        revision: UInt64(saves.count), value: Self.value(thread: thread, save: saves.last!)
                    )
                )
            }
        }
        let shared = try #require(reopened.customization(client: "c1", user: "shared"))
        #expect(shared.revision == UInt64(Self.threads * Self.savesPerThread / 10))
    }

    @Test("without group commit every write gets its own fsync, and all are durable")
    func oneSyncPerWrite() throws {
        let directory = try TemporaryDirectory("no-group-commit")
        defer { directory.remove() }
        let data = directory.child("data")
        var options = FileStore.Options()
        options.groupCommit = false
        let store = try FileStore(directory: data, options: options, logger: .silent)
        let failures = Mutex<[String]>([])
        _ = Concurrently.run(8) { thread in
            for save in 0..<10 {
                do {
                    _ = try store.saveCustomization(
                        client: "c1", user: "u\(thread)", Self.value(thread: thread, save: save), expectedRevision: nil
                    )
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(store.syncCount == 80)
        store.close()
        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        for thread in 0..<8 {
            #expect(
                reopened.customization(client: "c1", user: "u\(thread)")
                    == CustomizationEntry(revision: 10, value: Self.value(thread: thread, save: 9))
            )
        }
    }

    @Test("concurrent conditional saves of one key: exactly one wins each revision")
    func conditionalRace() throws {
        let directory = try TemporaryDirectory("group-race")
        defer { directory.remove() }
        let store = try FileStore(directory: directory.child("data"), logger: .silent)
        defer { store.close() }
        let wins = Mutex<[UInt64]>([])
        let unexpected = Mutex<[String]>([])
        _ = Concurrently.run(8) { thread in
            for _ in 0..<20 {
                let current = store.customization(client: "c1", user: "race")?.revision ?? 0
                do {
                    let entry = try store.saveCustomization(
                        client: "c1", user: "race", .init(order: ["t\(thread)"], hidden: []), expectedRevision: current
                    )
                    wins.withLock { $0.append(entry.revision) }
                } catch let error as StoreError where error == .revisionMismatch {
                    continue
                } catch {
                    unexpected.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(unexpected.withLock { $0 } == [])
        let revisions = wins.withLock { $0 }.sorted()
        #expect(!revisions.isEmpty)
        #expect(revisions == Array(1...UInt64(revisions.count)), "no revision was granted twice")
        #expect(store.customization(client: "c1", user: "race")?.revision == UInt64(revisions.count))
    }

    @Test("N writers expecting the same revision at once: exactly one succeeds, the rest mismatch")
    func sameExpectedRevision() throws {
        let directory = try TemporaryDirectory("group-cas")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        for revision in 0..<UInt64(3) {
            _ = try store.saveCustomization(
                client: "c1", user: "k", .init(order: [], hidden: []), expectedRevision: revision
            )
        }
        for round in 0..<10 {
            let current = UInt64(3 + round)
            let outcomes = Concurrently.run(8) { thread in
                Result {
                    try store.saveCustomization(
                        client: "c1", user: "k", .init(order: ["r\(round)t\(thread)"], hidden: []),
                        expectedRevision: current
                    )
                }
            }
            let winners = outcomes.compactMap { try? $0.get() }
            let mismatches = outcomes.count {
                if case .failure(let error as StoreError) = $0 { return error == .revisionMismatch }
                return false
            }
            #expect(winners.map(\.revision) == [current + 1], "round \(round)")
            #expect(mismatches == 7, "round \(round)")
            #expect(store.customization(client: "c1", user: "k") == winners.first)
        }
        store.close()
        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(reopened.customization(client: "c1", user: "k")?.revision == 13)
    }

    @Test("writers racing a write still pending in a group-commit batch: it wins, the rest mismatch before it lands")
    func expectedRevisionAgainstPendingWrite() throws {
        let directory = try TemporaryDirectory("group-pending")
        defer { directory.remove() }
        let (store, faults) = try FileStore.withFaults(in: directory)
        defer { store.close() }
        for revision in 0..<UInt64(5) {
            _ = try store.saveCustomization(
                client: "c1", user: "k", .init(order: [], hidden: []), expectedRevision: revision
            )
        }
        let gate = SyncGate()
        faults.beforeSync = { _ in gate.pass() }
        defer { gate.open() }

        let finished = DispatchGroup()
        finished.enter()
        Thread.detachNewThread {
            _ = try? store.saveCustomization(
                client: "c1", user: "other", .init(order: [], hidden: []), expectedRevision: nil
            )
            finished.leave()
        }
        try #require(gate.waitUntilHeld(), "a flush is in progress, holding the journal")

        let writers = 8
        let outcomes = Mutex<[Result<CustomizationEntry, any Error>]>([])
        let answered = DispatchSemaphore(value: 0)
        for thread in 0..<writers {
            finished.enter()
            Thread.detachNewThread {
                let outcome = Result {
                    try store.saveCustomization(
                        client: "c1", user: "k", .init(order: ["t\(thread)"], hidden: []), expectedRevision: 5
                    )
                }
                outcomes.withLock { $0.append(outcome) }
                answered.signal()
                finished.leave()
            }
        }
        for _ in 0..<(writers - 1) {
            try #require(answered.wait(timeout: .now() + 60) == .success, "the losers answer without waiting")
        }
        let early = outcomes.withLock { $0 }
        #expect(early.count == writers - 1, "the winner waits for its record to become durable")
        #expect(early.allSatisfy {
            if case .failure(let error as StoreError) = $0 { return error == .revisionMismatch }
            return false
        })
        #expect(store.customization(client: "c1", user: "k")?.revision == 5, "the winning write is still pending")

        gate.open()
        try #require(finished.wait(timeout: .now() + 60) == .success)
        let winners = outcomes.withLock { $0 }.compactMap { try? $0.get() }
        #expect(winners.map(\.revision) == [6])
        #expect(store.customization(client: "c1", user: "k") == winners.first)
        #expect(store.customization(client: "c1", user: "other")?.revision == 1)
    }
}
