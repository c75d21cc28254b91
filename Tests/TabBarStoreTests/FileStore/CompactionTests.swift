import Foundation
import Synchronization
import Testing
import TestSupport
@testable import TabBarStore

@Suite("compaction")
struct CompactionTests {
    private static func value(_ n: Int) -> StoredCustomization {
        StoredCustomization(order: ["tab\(n)", "home"], hidden: n.isMultiple(of: 2) ? ["home"] : [])
    }

    private static func journalSize(_ directory: TemporaryDirectory) throws -> Int? {
        let path = directory.path("data", "customizations.journal")
        return try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
    }

    /// Every key's state, for comparing two stores.
    private static func state(_ store: FileStore, users: [String], clients: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for client in clients {
            for user in users {
                let entry = store.customization(client: client, user: user)
                result["\(client)/\(user)"] =
                    "\(store.currentRevision(client: client, user: user)) \(String(describing: entry))"
            }
        }
        result["count"] = "\(store.customizationCount)"
        return result
    }

    @Test("write, compact, write more, reopen: everything is there")
    func compactThenReopen() throws {
        let directory = try TemporaryDirectory("compact")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        for n in 0..<30 {
            _ = try store.saveCustomization(client: "c1", user: "u\(n % 7)", Self.value(n), expectedRevision: nil)
        }
        _ = try store.deleteCustomization(client: "c1", user: "u3")
        try store.compact()
        #expect(try Self.journalSize(directory) == JournalFile.magic.count)
        #expect(FileManager.default.fileExists(atPath: directory.path("data", "customizations.snapshot")))
        for n in 30..<40 {
            _ = try store.saveCustomization(client: "c2", user: "u\(n % 7)", Self.value(n), expectedRevision: nil)
        }
        _ = try store.saveCustomization(client: "c1", user: "u0", Self.value(99), expectedRevision: 5)
        let users = (0..<7).map { "u\($0)" }
        let before = Self.state(store, users: users, clients: ["c1", "c2"])
        store.close()

        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(Self.state(reopened, users: users, clients: ["c1", "c2"]) == before)
        #expect(
            reopened.customization(client: "c1", user: "u0") == CustomizationEntry(revision: 6, value: Self.value(99))
        )
        #expect(reopened.customization(client: "c1", user: "u3") == nil)
        #expect(reopened.currentRevision(client: "c1", user: "u3") == 5)
        let resaved = try reopened.saveCustomization(client: "c1", user: "u3", Self.value(1), expectedRevision: 0)
        #expect(resaved.revision == 6)
    }

    @Test("a crash between the snapshot rename and the journal swap replays the old journal harmlessly")
    func crashBetweenSnapshotAndJournalSwap() throws {
        let directory = try TemporaryDirectory("compact-crash")
        defer { directory.remove() }
        let data = directory.child("data")
        let journalPath = directory.path("data", "customizations.journal")
        let store = try FileStore(directory: data, logger: .silent)
        for n in 0..<12 {
            _ = try store.saveCustomization(client: "c1", user: "u\(n % 4)", Self.value(n), expectedRevision: nil)
            _ = try store.saveCustomization(client: "c2", user: "u\(n % 3)", Self.value(n), expectedRevision: nil)
        }
        _ = try store.deleteCustomization(client: "c1", user: "u1")
        _ = try store.deleteClient("c2")
        _ = try store.saveCustomization(client: "c2", user: "u0", Self.value(77), expectedRevision: 0)
        _ = try store.saveCustomization(client: "c1", user: "u2", Self.value(78), expectedRevision: nil)
        let users = (0..<4).map { "u\($0)" }
        let before = Self.state(store, users: users, clients: ["c1", "c2"])
        let oldJournal = try Data(contentsOf: URL(fileURLWithPath: journalPath))
        try store.compact()
        store.close()

        try oldJournal.write(to: URL(fileURLWithPath: journalPath))
        let reopened = try FileStore(directory: data, logger: .silent)
        #expect(Self.state(reopened, users: users, clients: ["c1", "c2"]) == before)
        #expect(
            reopened.customization(client: "c2", user: "u0") == CustomizationEntry(revision: 5, value: Self.value(77)),
            "u0 had revision 4 when c2 was deleted; its numbering continued"
        )
        #expect(reopened.currentRevision(client: "c2", user: "u1") == 4)
        _ = try reopened.saveCustomization(client: "c1", user: "u3", Self.value(5), expectedRevision: nil)
        let after = Self.state(reopened, users: users, clients: ["c1", "c2"])
        reopened.close()

        let again = try FileStore(directory: data, logger: .silent)
        defer { again.close() }
        #expect(Self.state(again, users: users, clients: ["c1", "c2"]) == after)
    }

    @Test("deleted clients' last version numbers and their users' revisions survive compaction")
    func numberingSurvivesCompaction() throws {
        let directory = try TemporaryDirectory("compact-numbering")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        let document = Data(#"{"tabs":[]}"#.utf8)
        for _ in 0..<4 {
            _ = try store.publish(client: "gone", document: document, note: nil, rollbackOf: nil)
        }
        for n in 0..<3 {
            _ = try store.saveCustomization(client: "gone", user: "alice", Self.value(n), expectedRevision: nil)
        }
        _ = try store.saveCustomization(client: "kept", user: "bob", Self.value(1), expectedRevision: nil)
        #expect(try store.deleteClient("gone"))
        try store.compact()
        #expect(try Self.journalSize(directory) == JournalFile.magic.count, "only the snapshot remembers")
        store.close()

        let reopened = try FileStore(directory: data, logger: .silent)
        #expect(reopened.customization(client: "gone", user: "alice") == nil)
        #expect(reopened.currentRevision(client: "gone", user: "alice") == 3)
        #expect(reopened.customizationCount == 1)
        #expect(try reopened.publish(client: "gone", document: document, note: nil, rollbackOf: nil).version == 5)
        #expect(
            try reopened.saveCustomization(client: "gone", user: "alice", Self.value(9), expectedRevision: 0).revision
                == 4
        )
        try reopened.compact()
        reopened.close()

        let revived = try FileStore(directory: data, logger: .silent)
        #expect(
            revived.customization(client: "gone", user: "alice")
                == CustomizationEntry(revision: 4, value: Self.value(9)),
            "the snapshot's record of the deletion does not reset a later save"
        )
        #expect(try revived.deleteClient("gone"))
        try revived.compact()
        revived.close()

        let again = try FileStore(directory: data, logger: .silent)
        defer { again.close() }
        #expect(try again.publish(client: "gone", document: document, note: nil, rollbackOf: nil).version == 6)
        #expect(again.currentRevision(client: "gone", user: "alice") == 4)
        #expect(
            again.customization(client: "kept", user: "bob") == CustomizationEntry(revision: 1, value: Self.value(1))
        )
    }

    @Test("the journal is compacted automatically past the threshold")
    func automaticCompaction() throws {
        // The same 300 writes without compaction, for the journal's size had none run.
        let uncompacted = try TemporaryDirectory("compact-none")
        defer { uncompacted.remove() }
        let plain = try FileStore(directory: uncompacted.child("data"), logger: .silent)
        for n in 0..<300 {
            _ = try plain.saveCustomization(client: "c1", user: "u\(n % 25)", Self.value(n), expectedRevision: nil)
        }
        plain.close()
        let fullSize = try #require(try Self.journalSize(uncompacted))

        let directory = try TemporaryDirectory("compact-auto")
        defer { directory.remove() }
        let data = directory.child("data")
        var options = FileStore.Options()
        options.compactionThreshold = 2048
        let store = try FileStore(directory: data, options: options, logger: .silent)
        for n in 0..<300 {
            _ = try store.saveCustomization(client: "c1", user: "u\(n % 25)", Self.value(n), expectedRevision: nil)
        }
        let users = (0..<25).map { "u\($0)" }
        let before = Self.state(store, users: users, clients: ["c1"])
        store.close()
        // A compaction starts once the journal passes 2048 bytes and close lets it end, so at least the records
        // before that first cut left the journal. How many more did depends on how fast the snapshot was written
        // meanwhile, so no tighter bound holds on a busy machine.
        #expect(try #require(try Self.journalSize(directory)) <= fullSize - 2048)
        #expect(FileManager.default.fileExists(atPath: directory.path("data", "customizations.snapshot")))

        let reopened = try FileStore(directory: data, options: options, logger: .silent)
        defer { reopened.close() }
        #expect(Self.state(reopened, users: users, clients: ["c1"]) == before)
        #expect(
            reopened.customization(client: "c1", user: "u0") == CustomizationEntry(revision: 12, value: Self.value(275))
        )
    }

    @Test("writes keep becoming durable while the snapshot is written, and the journal swap keeps them")
    func writesDuringSnapshot() throws {
        let directory = try TemporaryDirectory("compact-background")
        defer { directory.remove() }
        let data = directory.child("data")
        let faults = FaultInjector()
        var options = FileStore.Options()
        options.faultInjector = faults
        options.compactionThreshold = 2048
        let gate = SyncGate()
        faults.beforeSync = { path in
            if path.contains("customizations.snapshot") { gate.pass() }
        }
        defer { gate.open() }
        let store = try FileStore(directory: data, options: options, logger: .silent)
        var written = 0
        while !gate.isHeld, written < 1000 {
            _ = try store.saveCustomization(client: "c1", user: "u\(written % 25)", Self.value(written), expectedRevision: nil)
            written += 1
        }
        try #require(gate.waitUntilHeld(), "a compaction is writing its snapshot")

        let done = DispatchSemaphore(value: 0)
        let failures = Mutex(0)
        Thread.detachNewThread {
            for n in 1000..<1100 {
                do {
                    _ = try store.saveCustomization(client: "c1", user: "u\(n % 30)", Self.value(n), expectedRevision: nil)
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 60) == .success, "writes complete while the snapshot fsync is held")
        #expect(failures.withLock { $0 } == 0)
        let users = (0..<30).map { "u\($0)" }
        let before = Self.state(store, users: users, clients: ["c1"])
        gate.open()
        store.close()
        #expect(try #require(try Self.journalSize(directory)) < 100 * 200, "the journal was swapped for its tail")

        let reopened = try FileStore(directory: data, options: options, logger: .silent)
        defer { reopened.close() }
        #expect(Self.state(reopened, users: users, clients: ["c1"]) == before)
        #expect(reopened.customization(client: "c1", user: "u19")?.value == Self.value(1099))
    }

    @Test("a damaged snapshot stops open with the file and offset")
    func corruptSnapshot() throws {
        let directory = try TemporaryDirectory("snapshot-corrupt")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        for n in 0..<5 {
            _ = try store.saveCustomization(client: "c1", user: "u\(n)", Self.value(n), expectedRevision: nil)
        }
        try store.compact()
        store.close()
        let path = directory.path("data", "customizations.snapshot")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count - 3] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: StoreOpenError.self) {
            try FileStore(directory: data, logger: .silent)
        }
        #expect(error.description.contains(path))
        #expect(error.description.contains("byte offset"))
    }
}
