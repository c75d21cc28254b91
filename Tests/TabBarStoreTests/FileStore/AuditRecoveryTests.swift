import Foundation
import Testing
import TestSupport
@testable import TabBarStore

/// The file store's audit.log across crashes and damage: torn tails, an entry whose change never happened, corruption
/// in the middle, and a change that fails after its entry was written.
@Suite("audit log recovery")
struct AuditRecoveryTests {
    private static func document(_ n: Int) -> Data {
        Data(#"{"tabs":[{"id":"home","n":\#(n)}]}"#.utf8)
    }

    /// A data directory after `publishes` audited publishes of `ios`: the audit log's path, bytes and record offsets.
    private struct Fixture {
        let directory: TemporaryDirectory
        let recorder = AuditRecorder()
        var data: URL { directory.child("data") }
        var path: String { directory.path("data", AuditLog.fileName) }

        init(publishes: Int) throws {
            directory = try TemporaryDirectory("audit")
            let store = try FileStore(directory: directory.child("data"), logger: .silent)
            defer { store.close() }
            for index in 1...publishes {
                _ = try store.publish(
                    client: "ios", document: AuditRecoveryTests.document(index), note: nil, rollbackOf: nil,
                    expectedVersion: nil, audit: recorder.record(.publish))
            }
        }

        func bytes() throws -> Data {
            try Data(contentsOf: URL(fileURLWithPath: path))
        }

        /// Byte offset of each record.
        func offsets() throws -> [Int] {
            var offsets: [Int] = []
            let outcome = try bytes().withUnsafeBytes { raw in
                RecordFraming.scan(raw, from: AuditLog.magic.count) { offsets.append($0.offset) }
            }
            precondition(outcome == .clean, "the fixture's audit log is well formed")
            return offsets
        }

        /// Appends `bytes` to the audit log, as a crash part-way through the next change leaves them.
        func append(_ bytes: Data) throws {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: bytes)
        }

        func sideFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: data.path).filter { $0.contains(SideFile.marker) }
        }

        func remove() {
            directory.remove()
        }
    }

    /// The framed record of an entry the store did not write.
    private static func record(_ action: AuditAction, client: String = "ios", version: Int) throws -> Data {
        try AuditLog.record(
            AuditEntry(
                sequence: 99, time: Date(), key: "ghost", action: action, client: client, version: version,
                previousVersion: version - 1, rollbackOf: nil, summary: AuditSummary(), note: nil, requestID: nil))
    }

    @Test("a torn last record (a crash while appending) goes to a side file; the log continues after the others")
    func tornTail() throws {
        let fixture = try Fixture(publishes: 3)
        defer { fixture.remove() }
        let original = try fixture.bytes()
        let record = try Self.record(.publish, version: 4)
        for cut in [1, RecordFraming.headerSize, record.count - 1] {
            try fixture.append(record.prefix(cut))
            let capture = LogCapture()
            let store = try FileStore(directory: fixture.data, logger: capture.logger)
            #expect(try store.auditEntries(AuditQuery()).map(\.version) == [1, 2, 3], "cut \(cut)")
            store.close()
            #expect(try fixture.bytes() == original, "cut \(cut): truncated at the record boundary")
            let warning = try #require(capture.warnings.first { $0.message.contains("torn tail") }, "cut \(cut)")
            #expect(warning.message.contains(fixture.path))
            #expect(warning.metadata["offset"] == "\(original.count)")
            let side = try #require(warning.metadata["sideFile"])
            #expect(try Data(contentsOf: URL(fileURLWithPath: side)) == record.prefix(cut))
        }
        #expect(try fixture.sideFiles().count == 3)

        let store = try FileStore(directory: fixture.data, logger: .silent)
        defer { store.close() }
        let next = try store.publish(
            client: "ios", document: Self.document(4), note: nil, rollbackOf: nil, expectedVersion: 3,
            audit: fixture.recorder.record(.publish))
        let entries = try store.auditEntries(AuditQuery())
        #expect(entries.map(\.sequence) == [1, 2, 3, 4])
        #expect(entries.last?.version == next.version)
    }

    @Test("a whole last entry whose change is not in the store (a crash between the two) is cut at open")
    func danglingLastEntry() throws {
        let fixture = try Fixture(publishes: 2)
        defer { fixture.remove() }
        let original = try fixture.bytes()
        for (action, version) in [(AuditAction.publish, 3), (.rollback, 7), (.delete, 2)] {
            let record = try Self.record(action, version: version)
            try fixture.append(record)
            let capture = LogCapture()
            let store = try FileStore(directory: fixture.data, logger: capture.logger)
            #expect(try store.auditEntries(AuditQuery()).map(\.version) == [1, 2], "\(action)")
            #expect(store.versionNumbers(client: "ios") == [1, 2], "\(action): the store itself is unchanged")
            store.close()
            #expect(try fixture.bytes() == original, "\(action)")
            let warning = try #require(capture.warnings.first { $0.message.contains("cut the last entry") })
            #expect(warning.message.contains(fixture.path) && warning.message.contains("byte offset \(original.count)"))
            #expect(warning.metadata["offset"] == "\(original.count)")
            let side = try #require(warning.metadata["sideFile"])
            #expect(try Data(contentsOf: URL(fileURLWithPath: side)) == record)
        }

        let store = try FileStore(directory: fixture.data, logger: .silent)
        defer { store.close() }
        let third = try store.publish(
            client: "ios", document: Self.document(3), note: nil, rollbackOf: nil, expectedVersion: 2,
            audit: fixture.recorder.record(.publish))
        #expect(third.version == 3)
        #expect(try store.auditEntries(AuditQuery()).map(\.sequence) == [1, 2, 3])
    }

    @Test("a last build-manifest entry is cut when builds.json lacks its change, kept when it has it")
    func buildEntries() throws {
        let fixture = try Fixture(publishes: 1)
        defer { fixture.remove() }
        let manifest = Data(#"{"viewControllers":["Home"]}"#.utf8)
        do {
            let store = try FileStore(directory: fixture.data, logger: .silent)
            defer { store.close() }
            let registered = try store.registerBuild(
                client: "ios", platform: "ios", appVersion: "5.2.0", document: manifest,
                audit: fixture.recorder.record(.registerBuild))
            #expect(registered.build.revision == 1)
        }
        func ghost(_ action: AuditAction, _ appVersion: String, revision: Int) throws -> Data {
            try AuditLog.record(
                AuditEntry(
                    sequence: 99, time: Date(), key: "ghost", action: action, client: "ios", version: 1,
                    previousVersion: nil, rollbackOf: nil, summary: AuditSummary(), note: nil, requestID: nil,
                    build: AuditBuild(platform: "ios", appVersion: appVersion, revision: revision)))
        }
        let original = try fixture.bytes()
        // A registration whose revision builds.json never gave out, and a removal of a manifest still there.
        for record in [try ghost(.registerBuild, "5.3.0", revision: 2), try ghost(.removeBuild, "5.2.0", revision: 1)] {
            try fixture.append(record)
            let store = try FileStore(directory: fixture.data, logger: .silent)
            #expect(try store.auditEntries(AuditQuery()).map(\.action) == [.publish, .registerBuild])
            #expect(store.builds(client: "ios").map(\.appVersion) == ["5.2.0"])
            store.close()
            #expect(try fixture.bytes() == original)
        }
        // A removal of a manifest that is gone happened.
        try fixture.append(try ghost(.removeBuild, "5.1.0", revision: 1))
        let store = try FileStore(directory: fixture.data, logger: .silent)
        defer { store.close() }
        let entries = try store.auditEntries(AuditQuery())
        #expect(entries.map(\.action) == [.publish, .registerBuild, .removeBuild])
        #expect(entries[1].build == AuditBuild(platform: "ios", appVersion: "5.2.0", revision: 1))
        #expect(entries[1].version == 1, "the client's live version when the manifest was registered")
    }

    @Test("a last entry whose change happened stays: a version moved aside as damaged, or deleted since")
    func lastEntryThatHappened() throws {
        let fixture = try Fixture(publishes: 2)
        defer { fixture.remove() }
        let newest = fixture.directory.path("data", "clients", "ios", "versions", "000002.json")
        try Data("{\"version\":2,".utf8).write(to: URL(fileURLWithPath: newest))
        let capture = LogCapture()
        let store = try FileStore(directory: fixture.data, logger: capture.logger)
        #expect(store.liveVersion(client: "ios")?.version == 1, "the damaged newest version was moved aside")
        #expect(try store.auditEntries(AuditQuery()).map(\.version) == [1, 2])
        #expect(!capture.warnings.contains { $0.message.contains("cut the last entry") })
        #expect(try store.deleteClient("ios"))
        store.close()

        try fixture.append(try Self.record(.publish, version: 2))
        let reopened = try FileStore(directory: fixture.data, logger: .silent)
        defer { reopened.close() }
        #expect(
            try reopened.auditEntries(AuditQuery()).map(\.version) == [1, 2, 2],
            "version 2 was had: the unaudited delete's journal record says so")
    }

    @Test("a damaged record with valid ones after it refuses open; repair keeps every valid record")
    func corruptionInTheMiddle() throws {
        let fixture = try Fixture(publishes: 4)
        defer { fixture.remove() }
        let offsets = try fixture.offsets()
        var bytes = try fixture.bytes()
        bytes[offsets[1] + RecordFraming.headerSize + 3] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: fixture.path))

        let error = try #require(throws: StoreOpenError.self) {
            try FileStore(directory: fixture.data, logger: .silent)
        }
        let named = [
            fixture.path, "byte offset \(offsets[1]) (payload checksum mismatch)", "2 valid records follow it",
            "the audit log was left as it is",
            "tabconfig store repair --data-dir \(fixture.data.standardizedFileURL.path)",
        ]
        for fragment in named {
            #expect(error.description.contains(fragment), "\(error)")
        }
        #expect(try fixture.bytes() == bytes, "open changes nothing")

        let verify = try StoreRecovery.verify(directory: fixture.data)
        let check = try #require(verify.files.first { $0.kind == .audit })
        #expect(check.path == fixture.path)
        #expect(check.validRecords == 3 && !check.opensWithoutRepair)
        #expect(check.damage.map(\.offset) == [offsets[1]] && check.damage.first?.validRecordsAfter == 2)

        let repaired = try StoreRecovery.repair(directory: fixture.data, logger: .silent)
        let action = try #require(repaired.files.first { $0.kind == .audit }?.action)
        #expect(action.contains("kept 3 valid records") && action.hasSuffix("rewrote the audit log"))
        #expect(try fixture.sideFiles().count == 1)
        #expect(try StoreRecovery.verify(directory: fixture.data).isClean)
        let store = try FileStore(directory: fixture.data, logger: .silent)
        defer { store.close() }
        #expect(try store.auditEntries(AuditQuery()).map(\.version) == [1, 3, 4])
    }

    @Test("a change that fails after its entry was written leaves no entry, in memory or in the file")
    func failedChange() throws {
        let directory = try TemporaryDirectory("audit-fault")
        defer { directory.remove() }
        let (store, faults) = try FileStore.withFaults(in: directory)
        let recorder = AuditRecorder()
        _ = try store.publish(
            client: "ios", document: Self.document(1), note: nil, rollbackOf: nil, expectedVersion: nil,
            audit: recorder.record(.publish))
        let path = directory.path("data", AuditLog.fileName)
        let size = try Data(contentsOf: URL(fileURLWithPath: path)).count
        faults.beforeSync = { path in
            if path.contains("/versions/") { faults.failSyncs = true }
        }
        #expect(throws: StoreError.unavailable) {
            try store.publish(
                client: "ios", document: Self.document(2), note: nil, rollbackOf: nil, expectedVersion: nil,
                audit: recorder.record(.publish))
        }
        #expect(store.unavailableReason != nil)
        #expect(recorder.previous.count == 2, "the entry was written before the change failed")
        #expect(try store.auditEntries(AuditQuery()).map(\.version) == [1])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == size, "cut from the file again")
        store.close()

        let capture = LogCapture()
        let reopened = try FileStore(directory: directory.child("data"), logger: capture.logger)
        defer { reopened.close() }
        #expect(try reopened.auditEntries(AuditQuery()).map(\.version) == [1])
        #expect(capture.warnings.isEmpty)
    }
}
