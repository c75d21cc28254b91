import Foundation
import Testing
import TestSupport
@testable import TabBarStore

@Suite("version pruning")
struct PruningTests {
    private static func document(_ n: Int) -> Data {
        Data(#"{"tabs":[{"id":"home","n":\#(n)}]}"#.utf8)
    }

    private static func options(keep: Int) -> FileStore.Options {
        var options = FileStore.Options()
        options.keepVersions = keep
        return options
    }

    /// The version numbers whose files are in the client's versions directory, ascending.
    private static func filesOnDisk(_ directory: TemporaryDirectory, client: String) throws -> [Int] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path("data", "clients", client, "versions"))
            .compactMap(VersionFile.number(fromFileName:))
            .sorted()
    }

    private static func publish(_ store: FileStore, client: String, _ numbers: ClosedRange<Int>) throws {
        for n in numbers {
            let version = try store.publish(client: client, document: document(n), note: "v\(n)", rollbackOf: nil)
            #expect(version.version == n)
        }
    }

    @Test("keepVersions 3 with 10 publishes keeps versions 8, 9, 10; files 1…7 are gone")
    func keepsTheNewest() throws {
        let directory = try TemporaryDirectory("prune")
        defer { directory.remove() }
        let store = try FileStore(directory: directory.child("data"), options: Self.options(keep: 3), logger: .silent)
        defer { store.close() }
        try Self.publish(store, client: "ios", 1...10)
        _ = try store.publish(client: "android", document: Self.document(1), note: nil, rollbackOf: nil)

        #expect(store.versionNumbers(client: "ios") == [8, 9, 10])
        #expect(try Self.filesOnDisk(directory, client: "ios") == [8, 9, 10])
        for pruned in 1...7 {
            #expect(store.version(client: "ios", number: pruned) == nil, "version \(pruned) was pruned")
            let path = directory.path("data", "clients", "ios", "versions", VersionFile.fileName(pruned))
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        let eight = try #require(store.version(client: "ios", number: 8))
        #expect(eight.document == Self.document(8) && eight.note == "v8")
        #expect(store.liveVersion(client: "ios")?.version == 10)
        let history = store.versionHistory(client: "ios")
        #expect(history.map(\.version) == [10, 9, 8])
        #expect(history.map(\.note) == ["v10", "v9", "v8"])
        #expect(history.allSatisfy { $0.size == Self.document($0.version).count && $0.client == "ios" })
        #expect(store.versionNumbers(client: "android") == [1])
    }

    @Test("a reopened store has the pruned history and keeps pruning")
    func reopenAfterPrune() throws {
        let directory = try TemporaryDirectory("prune-reopen")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, options: Self.options(keep: 3), logger: .silent)
        try Self.publish(store, client: "ios", 1...10)
        let history = store.versionHistory(client: "ios")
        store.close()

        let reopened = try FileStore(directory: data, options: Self.options(keep: 3), logger: .silent)
        defer { reopened.close() }
        #expect(reopened.versionHistory(client: "ios") == history)
        #expect(reopened.version(client: "ios", number: 7) == nil)
        #expect(reopened.version(client: "ios", number: 9)?.document == Self.document(9))
        let next = try reopened.publish(client: "ios", document: Self.document(11), note: nil, rollbackOf: nil)
        #expect(next.version == 11)
        #expect(reopened.versionNumbers(client: "ios") == [9, 10, 11])
        #expect(try Self.filesOnDisk(directory, client: "ios") == [9, 10, 11])
    }

    @Test("keepVersions 1 keeps only the live version, which is never pruned")
    func keepOne() throws {
        let directory = try TemporaryDirectory("prune-one")
        defer { directory.remove() }
        let store = try FileStore(directory: directory.child("data"), options: Self.options(keep: 1), logger: .silent)
        defer { store.close() }
        try Self.publish(store, client: "ios", 1...4)
        #expect(store.versionNumbers(client: "ios") == [4])
        #expect(store.version(client: "ios", number: 4) == store.liveVersion(client: "ios"))
        #expect(try Self.filesOnDisk(directory, client: "ios") == [4])
        let rollback = try store.publish(client: "ios", document: Self.document(2), note: nil, rollbackOf: 2)
        #expect(rollback.version == 5 && rollback.rollbackOf == 2)
        #expect(store.versionHistory(client: "ios").map(\.version) == [5])
    }

    @Test("keepVersions below 1 is an open error", arguments: [0, -3])
    func keepMustBePositive(keep: Int) throws {
        let directory = try TemporaryDirectory("prune-invalid")
        defer { directory.remove() }
        let error = try #require(throws: StoreOpenError.self) {
            try FileStore(directory: directory.child("data"), options: Self.options(keep: keep), logger: .silent)
        }
        #expect(error.description.contains("keepVersions"))
    }

    @Test("versions a crash left unpruned are pruned at open")
    func pruneAtOpen() throws {
        let directory = try TemporaryDirectory("prune-open")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        try Self.publish(store, client: "ios", 1...6)
        store.close()

        let capture = LogCapture()
        let reopened = try FileStore(directory: data, options: Self.options(keep: 3), logger: capture.logger)
        #expect(reopened.versionNumbers(client: "ios") == [4, 5, 6])
        #expect(try Self.filesOnDisk(directory, client: "ios") == [4, 5, 6])
        #expect(capture.all.contains { $0.message.contains("pruning") })
        let next = try reopened.publish(client: "ios", document: Self.document(7), note: nil, rollbackOf: nil)
        #expect(next.version == 7)
        reopened.close()
    }

    @Test("a prune interrupted at any point leaves a store that opens with its live version", arguments: [1, 3])
    func interruptedPrune(keep: Int) throws {
        let directory = try TemporaryDirectory("prune-crash")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        try Self.publish(store, client: "ios", 1...10)
        store.close()
        let versions = directory.path("data", "clients", "ios", "versions")
        for removed in [1, 2, 4, 6, 7] {
            try FileManager.default.removeItem(atPath: "\(versions)/\(VersionFile.fileName(removed))")
        }

        let reopened = try FileStore(directory: data, options: Self.options(keep: keep), logger: .silent)
        defer { reopened.close() }
        let expected = Array((11 - keep)...10)
        #expect(reopened.versionNumbers(client: "ios") == expected)
        #expect(try Self.filesOnDisk(directory, client: "ios") == expected)
        #expect(reopened.liveVersion(client: "ios")?.document == Self.document(10))
        let next = try reopened.publish(client: "ios", document: Self.document(11), note: nil, rollbackOf: nil)
        #expect(next.version == 11)
    }

    @Test("a prune that fails does not undo the publish, and the store then refuses writes")
    func failedPrune() throws {
        let directory = try TemporaryDirectory("prune-fail")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, options: Self.options(keep: 1), logger: .silent)
        try Self.publish(store, client: "ios", 1...2)
        let second = directory.path("data", "clients", "ios", "versions", VersionFile.fileName(2))
        try FileManager.default.removeItem(atPath: second)
        try FileManager.default.createDirectory(atPath: second + "/blocker", withIntermediateDirectories: true)

        let third = try store.publish(client: "ios", document: Self.document(3), note: nil, rollbackOf: nil)
        #expect(third.version == 3)
        #expect(store.liveVersion(client: "ios") == third)
        #expect(store.versionNumbers(client: "ios") == [3])
        #expect(store.unavailableReason?.contains("pruning") == true)
        #expect(throws: StoreError.unavailable) {
            try store.publish(client: "ios", document: Self.document(4), note: nil, rollbackOf: nil)
        }
        store.close()

        let error = try #require(throws: StoreOpenError.self) {
            try FileStore(directory: data, options: Self.options(keep: 1), logger: .silent)
        }
        #expect(error.description.contains(directory.path("data", "clients", "ios", "versions")))
        try FileManager.default.removeItem(atPath: second)
        let reopened = try FileStore(directory: data, options: Self.options(keep: 1), logger: .silent)
        defer { reopened.close() }
        #expect(reopened.liveVersion(client: "ios") == third)
    }

    @Test("a version being pruned while it is read comes back whole or as nil")
    func readDuringPrune() throws {
        let directory = try TemporaryDirectory("prune-read")
        defer { directory.remove() }
        let capture = LogCapture()
        let store = try FileStore(
            directory: directory.child("data"), options: Self.options(keep: 2), logger: capture.logger
        )
        defer { store.close() }
        try Self.publish(store, client: "ios", 1...2)
        let readers = 4
        let outcomes = Concurrently.run(readers + 1) { thread -> [String] in
            var problems: [String] = []
            if thread == readers {
                for n in 3...40 {
                    do {
                        _ = try store.publish(client: "ios", document: Self.document(n), note: nil, rollbackOf: nil)
                    } catch {
                        problems.append("publish \(n): \(error)")
                    }
                }
                return problems
            }
            for _ in 0..<200 {
                for number in store.versionNumbers(client: "ios") {
                    if let version = store.version(client: "ios", number: number),
                        version.document != Self.document(number)
                    {
                        problems.append("version \(number) came back with another document")
                    }
                }
            }
            return problems
        }
        #expect(outcomes.flatMap { $0 } == [])
        #expect(store.versionNumbers(client: "ios") == [39, 40])
        #expect(store.unavailableReason == nil)
        #expect(!capture.all.contains { $0.level >= .error }, "a pruned file is not a read error")
    }
}
