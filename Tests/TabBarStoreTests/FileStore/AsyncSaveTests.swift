import Foundation
import Synchronization
import Testing
import TestSupport
@testable import TabBarStore

@Suite("saves that complete later")
struct AsyncSaveTests {
    /// Starts `count` saves from one thread without waiting, and returns their outcomes once all have completed.
    private static func saveAll(
        _ store: FileStore, count: Int, user: (Int) -> String, expectedRevision: UInt64? = nil
    ) throws -> [Int: Result<CustomizationEntry, any Error>] {
        let outcomes = Mutex<[Int: Result<CustomizationEntry, any Error>]>([:])
        let done = DispatchGroup()
        for index in 0..<count {
            done.enter()
            store.saveCustomization(
                client: "c1", user: user(index), .init(order: ["t\(index)"], hidden: []),
                expectedRevision: expectedRevision
            ) { outcome in
                outcomes.withLock { $0[index] = outcome }
                done.leave()
            }
        }
        try #require(done.wait(timeout: .now() + 60) == .success, "every completion is called")
        return outcomes.withLock { $0 }
    }

    @Test("500 saves started from one thread: all durable, batched into fewer fsyncs, revisions in order")
    func manyFromOneThread() throws {
        let directory = try TemporaryDirectory("async-save")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        let outcomes = try Self.saveAll(store, count: 500) { "u\($0 % 50)" }
        let entries = try (0..<500).map { try #require(outcomes[$0]).get() }
        for (index, entry) in entries.enumerated() {
            #expect(entry.revision == UInt64(index / 50 + 1))
        }
        #expect(store.syncCount < 500, "500 writes took \(store.syncCount) fsyncs")
        store.close()

        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(reopened.customizationCount == 50)
        for user in 0..<50 {
            #expect(
                reopened.customization(client: "c1", user: "u\(user)")
                    == CustomizationEntry(revision: 10, value: .init(order: ["t\(450 + user)"], hidden: [])))
        }
    }

    @Test("a stale expected revision is refused at once, on the caller's thread")
    func mismatchAtOnce() throws {
        let directory = try TemporaryDirectory("async-mismatch")
        defer { directory.remove() }
        let store = try FileStore(directory: directory.child("data"), logger: .silent)
        defer { store.close() }
        _ = try store.saveCustomization(client: "c1", user: "k", .init(order: [], hidden: []), expectedRevision: nil)
        let outcome = Mutex<Result<CustomizationEntry, any Error>?>(nil)
        store.saveCustomization(client: "c1", user: "k", .init(order: ["x"], hidden: []), expectedRevision: 7) {
            result in outcome.withLock { $0 = result }
        }
        let result = try #require(outcome.withLock { $0 })
        #expect(throws: StoreError.revisionMismatch) { try result.get() }
        #expect(store.customization(client: "c1", user: "k")?.revision == 1)
    }

    @Test("when fsync fails, every waiting save completes with unavailable and none is there after a restart")
    func failedSync() throws {
        let directory = try TemporaryDirectory("async-fsync")
        defer { directory.remove() }
        let (store, faults) = try FileStore.withFaults(in: directory)
        _ = try store.saveCustomization(client: "c1", user: "kept", .init(order: [], hidden: []), expectedRevision: nil)
        faults.failSyncs = true
        let outcomes = try Self.saveAll(store, count: 40) { "u\($0)" }
        #expect(outcomes.count == 40)
        for outcome in outcomes.values {
            #expect(throws: StoreError.unavailable) { try outcome.get() }
        }
        let later = try Self.saveAll(store, count: 1) { _ in "late" }
        #expect(throws: StoreError.unavailable) { try later[0]?.get() }
        store.close()
        faults.failSyncs = false

        let reopened = try FileStore(directory: directory.child("data"), logger: .silent)
        defer { reopened.close() }
        #expect(reopened.customizationCount == 1)
        #expect(reopened.customization(client: "c1", user: "kept")?.revision == 1)
    }

    @Test("close completes the saves still waiting")
    func closeFlushes() throws {
        let directory = try TemporaryDirectory("async-close")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        let completed = Atomic<Int>(0)
        for index in 0..<200 {
            store.saveCustomization(client: "c1", user: "u\(index)", .init(order: [], hidden: []), expectedRevision: nil) {
                if case .success = $0 { completed.add(1, ordering: .relaxed) }
            }
        }
        store.close()
        #expect(completed.load(ordering: .relaxed) == 200)
        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(reopened.customizationCount == 200)
    }
}
