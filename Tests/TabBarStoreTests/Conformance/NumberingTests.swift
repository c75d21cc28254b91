import Foundation
import Testing
import TestSupport
@testable import TabBarStore

/// Version numbers and revisions are never handed out twice in one data directory, whatever a crash interrupts.
@Suite("numbers are never reused")
struct NumberingTests {
    private static let value = StoredCustomization(order: ["home", "feed"], hidden: [])

    private static func document(_ n: Int) -> Data {
        Data(#"{"tabs":[{"id":"home","n":\#(n)}]}"#.utf8)
    }

    private static func publish(_ store: FileStore, _ client: String) throws -> Int {
        try store.publish(client: client, document: document(0), note: nil, rollbackOf: nil).version
    }

    /// A store with client `ios` at version 3 and user `alice` at revision 2.
    private static func populated(_ data: URL, options: FileStore.Options = FileStore.Options()) throws -> FileStore {
        let store = try FileStore(directory: data, options: options, logger: .silent)
        for _ in 0..<3 { _ = try publish(store, "ios") }
        for _ in 0..<2 { _ = try store.saveCustomization(client: "ios", user: "alice", value, expectedRevision: nil) }
        return store
    }

    @Test("deleteClient, reopen: versions and revisions continue")
    func deleteThenReopen() throws {
        let directory = try TemporaryDirectory("numbering")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try Self.populated(data)
        #expect(try store.deleteClient("ios"))
        store.close()

        let reopened = try FileStore(directory: data, logger: .silent)
        #expect(reopened.clientIDs() == [])
        #expect(reopened.customization(client: "ios", user: "alice") == nil)
        #expect(try Self.publish(reopened, "ios") == 4)
        let saved3 = try reopened.saveCustomization(client: "ios", user: "alice", Self.value, expectedRevision: 0)
        #expect(saved3.revision == 3)
        #expect(try reopened.deleteClient("ios"))
        reopened.close()

        let again = try FileStore(directory: data, logger: .silent)
        defer { again.close() }
        #expect(try Self.publish(again, "ios") == 5, "a second deletion remembers the newer number")
        let saved4 = try again.saveCustomization(client: "ios", user: "alice", Self.value, expectedRevision: 0)
        #expect(saved4.revision == 4)
    }

    @Test("a crash after the deletion was journaled but before the files went: numbering continues")
    func crashBeforeFilesRemoved() throws {
        let directory = try TemporaryDirectory("numbering-crash")
        defer { directory.remove() }
        let data = directory.child("data")
        let clientDirectory = directory.path("data", "clients", "ios")
        let saved = directory.path("ios-copy")
        let store = try Self.populated(data)
        try FileManager.default.copyItem(atPath: clientDirectory, toPath: saved)
        #expect(try store.deleteClient("ios"))
        store.close()
        try FileManager.default.moveItem(atPath: saved, toPath: clientDirectory)

        let reopened = try FileStore(directory: data, logger: .silent)
        #expect(reopened.versionNumbers(client: "ios") == [1, 2, 3], "the unfinished deletion left the versions")
        #expect(reopened.customization(client: "ios", user: "alice") == nil, "the journaled part stays done")
        #expect(try reopened.deleteClient("ios"), "deleting again finishes the job")
        #expect(!FileManager.default.fileExists(atPath: clientDirectory))
        reopened.close()

        let again = try FileStore(directory: data, logger: .silent)
        defer { again.close() }
        #expect(try Self.publish(again, "ios") == 4)
        let saved3 = try again.saveCustomization(client: "ios", user: "alice", Self.value, expectedRevision: 0)
        #expect(saved3.revision == 3)
    }

    @Test("a crash after the client directory was renamed away: the leftover goes, numbering continues")
    func crashAfterRename() throws {
        let directory = try TemporaryDirectory("numbering-rename")
        defer { directory.remove() }
        let data = directory.child("data")
        let saved = directory.path("ios-copy")
        let store = try Self.populated(data)
        try FileManager.default.copyItem(atPath: directory.path("data", "clients", "ios"), toPath: saved)
        #expect(try store.deleteClient("ios"))
        store.close()
        let leftover = directory.path("data", "clients", ".deleted-ios-5eed")
        try FileManager.default.moveItem(atPath: saved, toPath: leftover)

        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(reopened.clientIDs() == [])
        #expect(try Self.publish(reopened, "ios") == 4)
    }

    @Test("a deleted client whose history was pruned continues after its live version")
    func deleteAfterPrune() throws {
        let directory = try TemporaryDirectory("numbering-pruned")
        defer { directory.remove() }
        let data = directory.child("data")
        var options = FileStore.Options()
        options.keepVersions = 2
        let store = try Self.populated(data, options: options)
        for _ in 0..<4 { _ = try Self.publish(store, "ios") }
        #expect(store.versionNumbers(client: "ios") == [6, 7])
        #expect(try store.deleteClient("ios"))
        store.close()

        let reopened = try FileStore(directory: data, options: options, logger: .silent)
        defer { reopened.close() }
        #expect(try Self.publish(reopened, "ios") == 8)
    }

    @Test("the deletion record carries the last version number; older records without it still replay")
    func journalRecords() throws {
        let journal = HandMadeJournal.bytes([
            #"{"op":"put","seq":1,"client":"ios","user":"a","revision":6,"value":{"order":[],"hidden":[]}}"#,
            #"{"op":"put","seq":2,"client":"web","user":"b","revision":2,"value":{"order":[],"hidden":[]}}"#,
            #"{"op":"deleteClient","seq":3,"client":"ios","lastVersion":7}"#,
            #"{"op":"deleteClient","seq":4,"client":"web"}"#,
        ])
        let directory = try TemporaryDirectory("numbering-journal")
        defer { directory.remove() }
        let data = directory.child("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try journal.write(to: data.appendingPathComponent("customizations.journal"))

        let store = try FileStore(directory: data, logger: .silent)
        defer { store.close() }
        #expect(store.customizationCount == 0)
        #expect(store.currentRevision(client: "ios", user: "a") == 6)
        #expect(store.currentRevision(client: "web", user: "b") == 2)
        #expect(try Self.publish(store, "ios") == 8)
        #expect(try Self.publish(store, "web") == 1)

        #expect(try store.deleteClient("ios"))
        let bytes = try Data(contentsOf: data.appendingPathComponent("customizations.journal"))
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""lastVersion":8"#))
    }

    @Test("a deletion racing saves of the same client: no revision is handed out twice")
    func deleteRacingSaves() throws {
        let directory = try TemporaryDirectory("numbering-race")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        _ = try Self.publish(store, "ios")
        let outcomes = Concurrently.run(6) { thread -> [UInt64] in
            var revisions: [UInt64] = []
            for round in 0..<30 {
                if thread == 0 {
                    if round.isMultiple(of: 3) { _ = try? store.deleteClient("ios") }
                    continue
                }
                if let entry = try? store.saveCustomization(
                    client: "ios", user: "shared", Self.value, expectedRevision: nil
                ) {
                    revisions.append(entry.revision)
                }
            }
            return revisions
        }
        let revisions = outcomes.flatMap { $0 }.sorted()
        #expect(revisions.count == 150)
        #expect(revisions == Array(1...150), "every save took a new revision, across the deletions")
        #expect(store.currentRevision(client: "ios", user: "shared") == 150)
        store.close()
        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(reopened.currentRevision(client: "ios", user: "shared") == 150)
    }
}
