import Foundation
import Testing
import TestSupport
@testable import TabBarStore

@Suite("journal recovery: torn tails and corruption")
struct JournalRecoveryTests {
    @Test("a journal cut at every byte of its last record opens without that record")
    func tornTailAtEveryOffset() throws {
        let fixture = try JournalFixture()
        defer { fixture.remove() }
        let lastStart = fixture.offsets.last!
        for cut in lastStart..<fixture.bytes.count {
            let copy = try fixture.dataDirectory(withJournal: fixture.bytes.prefix(cut))
            defer { copy.directory.remove() }
            let capture = LogCapture()
            let store = try FileStore(directory: copy.data, logger: capture.logger)
            for user in fixture.users.dropLast() {
                #expect(
                    store.customization(client: JournalFixture.client, user: user)
                        == CustomizationEntry(revision: 1, value: JournalFixture.value(for: user)),
                    "cut at \(cut)"
                )
            }
            #expect(store.customization(client: JournalFixture.client, user: fixture.users.last!) == nil)
            #expect(store.customizationCount == fixture.users.count - 1)
            store.close()
            let size = try FileManager.default.attributesOfItem(atPath: copy.journal)[.size] as? Int
            #expect(size == lastStart, "cut at \(cut): truncated to the record boundary")
            if cut > lastStart {
                let warning = capture.warnings.first { $0.message.contains("torn tail") }
                #expect(warning?.message.contains(copy.journal) == true)
                #expect(warning?.metadata["offset"] == "\(lastStart)")
                #expect(warning?.metadata["droppedBytes"] == "\(cut - lastStart)")
                let side = try #require(warning?.metadata["sideFile"])
                #expect(side.hasPrefix(copy.journal + ".damaged-\(lastStart)-"))
                #expect(try Data(contentsOf: URL(fileURLWithPath: side)) == fixture.bytes[lastStart..<cut])
            }
        }
    }

    @Test("a store reopened after a torn tail keeps appending from the boundary")
    func appendsAfterTruncation() throws {
        let fixture = try JournalFixture()
        defer { fixture.remove() }
        let copy = try fixture.dataDirectory(withJournal: fixture.bytes.prefix(fixture.bytes.count - 3))
        defer { copy.directory.remove() }
        let store = try FileStore(directory: copy.data, logger: .silent)
        let value = StoredCustomization(order: ["x"], hidden: [])
        _ = try store.saveCustomization(client: "c1", user: "erin", value, expectedRevision: 0)
        _ = try store.saveCustomization(client: "c1", user: "alice", value, expectedRevision: 1)
        store.close()
        let reopened = try FileStore(directory: copy.data, logger: .silent)
        defer { reopened.close() }
        #expect(reopened.customization(client: "c1", user: "erin") == CustomizationEntry(revision: 1, value: value))
        #expect(reopened.customization(client: "c1", user: "alice") == CustomizationEntry(revision: 2, value: value))
        #expect(reopened.customizationCount == 5)
    }

    @Test(
        "a damaged earlier record followed by valid records stops open with the file, offset, count and command",
        arguments: ["payload", "length"]
    )
    func corruptionBeforeTheTail(field: String) throws {
        let fixture = try JournalFixture()
        defer { fixture.remove() }
        let damaged = fixture.offsets[2]
        var bytes = fixture.bytes
        let position = field == "payload" ? damaged + RecordFraming.headerSize + 5 : damaged
        bytes[position] ^= 0x01
        let copy = try fixture.dataDirectory(withJournal: bytes)
        defer { copy.directory.remove() }
        let error = try #require(throws: StoreOpenError.self) {
            try FileStore(directory: copy.data, logger: .silent)
        }
        #expect(error.description.contains(copy.journal))
        #expect(error.description.contains("byte offset \(damaged) "))
        #expect(error.description.contains("2 valid records follow it"))
        #expect(error.description.contains("tabconfig store repair --data-dir \(copy.data.standardizedFileURL.path)"))
        let size = try FileManager.default.attributesOfItem(atPath: copy.journal)[.size] as? Int
        #expect(size == bytes.count, "a corrupt journal is left untouched")
    }

    @Test("a damaged last record followed by nothing but zeros is a torn tail")
    func damagedLastRecordBeforeZeros() throws {
        let fixture = try JournalFixture()
        defer { fixture.remove() }
        var bytes = fixture.bytes
        let last = fixture.offsets.last!
        for index in (last + RecordFraming.headerSize + 10)..<bytes.count { bytes[index] = 0 }
        bytes.append(Data(count: 512))
        let copy = try fixture.dataDirectory(withJournal: bytes)
        defer { copy.directory.remove() }
        let store = try FileStore(directory: copy.data, logger: .silent)
        defer { store.close() }
        #expect(store.customizationCount == fixture.users.count - 1)
    }

    @Test("a zero-filled tail is dropped and nothing acknowledged is lost", arguments: [1, 11, 12, 4096])
    func zeroFilledTail(zeros: Int) throws {
        let fixture = try JournalFixture()
        defer { fixture.remove() }
        let copy = try fixture.dataDirectory(withJournal: fixture.bytes + Data(count: zeros))
        defer { copy.directory.remove() }
        let capture = LogCapture()
        let store = try FileStore(directory: copy.data, logger: capture.logger)
        for user in fixture.users {
            #expect(
                store.customization(client: JournalFixture.client, user: user)
                    == CustomizationEntry(revision: 1, value: JournalFixture.value(for: user))
            )
        }
        store.close()
        let size = try FileManager.default.attributesOfItem(atPath: copy.journal)[.size] as? Int
        #expect(size == fixture.bytes.count)
        #expect(capture.warnings.contains { $0.metadata["offset"] == "\(fixture.bytes.count)" })
    }

    @Test("a record whose value cannot be decoded opens as an entry without a value")
    func undecodableValue() throws {
        let journal = HandMadeJournal.bytes([
            #"{"op":"put","seq":1,"client":"c1","user":"broken","revision":7,"value":{"order":5}}"#,
            #"{"op":"put","seq":2,"client":"c1","user":"fine","revision":1,"value":{"order":["a"],"hidden":[]}}"#,
            #"{"op":"put","seq":3,"client":"c1","user":"missing","revision":2}"#,
        ])
        let directory = try TemporaryDirectory("undecodable")
        defer { directory.remove() }
        let data = directory.child("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try journal.write(to: data.appendingPathComponent("customizations.journal"))

        let store = try FileStore(directory: data, logger: .silent)
        #expect(store.customization(client: "c1", user: "broken") == CustomizationEntry(revision: 7, value: nil))
        #expect(store.customization(client: "c1", user: "missing") == CustomizationEntry(revision: 2, value: nil))
        #expect(
            store.customization(client: "c1", user: "fine")
                == CustomizationEntry(revision: 1, value: StoredCustomization(order: ["a"], hidden: []))
        )
        #expect(store.customizationCount == 3)
        try store.compact()
        store.close()

        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(reopened.customization(client: "c1", user: "broken") == CustomizationEntry(revision: 7, value: nil))
        let fixed = StoredCustomization(order: ["b"], hidden: [])
        #expect(try reopened.saveCustomization(client: "c1", user: "broken", fixed, expectedRevision: 7).revision == 8)
    }

    @Test("a checksummed record that is not a journal record stops open with its offset")
    func undecodableEnvelope() throws {
        let good = #"{"op":"put","seq":1,"client":"c1","user":"a","revision":1,"value":{"order":[],"hidden":[]}}"#
        let journal = HandMadeJournal.bytes([good, #"{"op":"explode","client":"c1"}"#, good])
        let directory = try TemporaryDirectory("envelope")
        defer { directory.remove() }
        let data = directory.child("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let path = data.appendingPathComponent("customizations.journal").path
        try journal.write(to: URL(fileURLWithPath: path))
        let offset = JournalFile.magic.count + RecordFraming.headerSize + good.utf8.count
        let error = try #require(throws: StoreOpenError.self) {
            try FileStore(directory: data, logger: .silent)
        }
        #expect(error.description.contains(path))
        #expect(error.description.contains("byte offset \(offset) "))
    }

    @Test("a damaged last record followed by junk (not zeros) is a torn tail too")
    func damagedLastRecordBeforeJunk() throws {
        let fixture = try JournalFixture()
        defer { fixture.remove() }
        var bytes = fixture.bytes
        let last = fixture.offsets.last!
        bytes[last + 1] ^= 0x5A
        bytes.append(Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
        let copy = try fixture.dataDirectory(withJournal: bytes)
        defer { copy.directory.remove() }
        let capture = LogCapture()
        let store = try FileStore(directory: copy.data, logger: capture.logger)
        defer { store.close() }
        #expect(store.customizationCount == fixture.users.count - 1)
        #expect(capture.warnings.contains { $0.metadata["offset"] == "\(last)" && $0.metadata["sideFile"] != nil })
    }

    @Test("a journal with a bad header stops open")
    func badHeader() throws {
        let fixture = try JournalFixture()
        defer { fixture.remove() }
        var bytes = fixture.bytes
        bytes[0] = UInt8(ascii: "X")
        let copy = try fixture.dataDirectory(withJournal: bytes)
        defer { copy.directory.remove() }
        let error = try #require(throws: StoreOpenError.self) {
            try FileStore(directory: copy.data, logger: .silent)
        }
        #expect(error.description.contains(copy.journal))
        #expect(error.description.contains("byte offset 0 "))
    }
}
