import Foundation
import Testing
import TestSupport
@testable import TabBarStore

/// The snapshot declares its entry count, so damage is judged by what it costs: junk after every declared entry (and
/// nothing valid in it) is moved aside at open; anything that loses a declared entry, or has a valid record after it,
/// refuses; repair keeps every intact entry.
@Suite("snapshot damage")
struct SnapshotDamageTests {
    /// A data directory whose state is all in the snapshot: `users` customizations of c1, then a compaction.
    private static func compacted(users: Int, in directory: TemporaryDirectory) throws -> (data: URL, bytes: Data) {
        let data = directory.child("data")
        let store = try retryingWhileLocked { try FileStore(directory: data, logger: .silent) }
        for index in 0..<users {
            let value = StoredCustomization(order: ["home", "tab-\(index)"], hidden: index.isMultiple(of: 3) ? ["x"] : [])
            _ = try store.saveCustomization(client: "c1", user: "u\(index)", value, expectedRevision: 0)
        }
        try store.compact()
        store.close()
        let bytes = try Data(contentsOf: data.appendingPathComponent("customizations.snapshot"))
        return (data, bytes)
    }

    /// Record offsets in a snapshot (the header record first) and the user each entry holds (nil for the header).
    private static func records(_ bytes: Data) throws -> (offsets: [Int], users: [String?]) {
        var offsets: [Int] = []
        var users: [String?] = []
        try bytes.withUnsafeBytes { raw in
            let outcome = try RecordFraming.scan(raw, from: SnapshotFile.magic.count) { frame in
                offsets.append(frame.offset)
                let payload = Data(raw[frame.payload])
                let object = try JSONSerialization.jsonObject(with: payload) as? [String: Any]
                users.append(object?["user"] as? String)
            }
            #expect(outcome == .clean)
        }
        return (offsets, users)
    }

    private static func present(_ store: FileStore, users: Int) -> [String] {
        (0..<users).map { "u\($0)" }.filter { store.customization(client: "c1", user: $0) != nil }
    }

    @Test("junk after every declared entry is moved to a side file and the store opens with every entry")
    func trailingJunk() throws {
        let directory = try TemporaryDirectory("snapshot-junk")
        defer { directory.remove() }
        let (data, bytes) = try Self.compacted(users: 5, in: directory)
        let path = data.appendingPathComponent("customizations.snapshot").path
        let junk = Data((0..<77).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 5) })
        try (bytes + junk).write(to: URL(fileURLWithPath: path))
        let capture = LogCapture()
        let store = try retryingWhileLocked { try FileStore(directory: data, logger: capture.logger) }
        #expect(Self.present(store, users: 5).count == 5)
        store.close()
        let warning = try #require(capture.warnings.first { $0.metadata["file"] == path })
        #expect(warning.metadata["offset"] == "\(bytes.count)")
        #expect(warning.metadata["droppedBytes"] == "77")
        let side = try #require(warning.metadata["sideFile"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: side)) == junk)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test("a truncated snapshot (declared entries missing) refuses; repair keeps the intact entries and says what was lost")
    func truncated() throws {
        let directory = try TemporaryDirectory("snapshot-cut")
        defer { directory.remove() }
        let (data, bytes) = try Self.compacted(users: 6, in: directory)
        let (offsets, _) = try Self.records(bytes)
        let path = data.appendingPathComponent("customizations.snapshot").path
        try bytes.prefix(offsets[5] + 7).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: StoreOpenError.self) { try FileStore(directory: data, logger: .silent) }
        #expect(error.description.contains(path))
        #expect(error.description.contains("byte offset \(offsets[5]) ("))
        #expect(error.description.contains("only 4 of 6 declared entries are intact"))
        #expect(error.description.contains("tabconfig store repair --data-dir \(data.path)"))

        let verify = try StoreRecovery.verify(directory: data)
        let check = try #require(verify.files.first { $0.kind == .snapshot })
        #expect(check.validRecords == 4 && check.declaredEntries == 6 && !check.opensWithoutRepair)
        let report = try retryingWhileLocked { try StoreRecovery.repair(directory: data, logger: .silent) }
        let repaired = try #require(report.files.first { $0.kind == .snapshot })
        #expect(repaired.action?.contains("kept 4 intact entries (2 of the 6 declared entries were lost)") == true)
        #expect(repaired.sideFiles.count == 1)
        let store = try retryingWhileLocked { try FileStore(directory: data, logger: .silent) }
        defer { store.close() }
        #expect(Self.present(store, users: 6).count == 4)
    }

    @Test("seeded damage through a full FileStore: trailing junk opens, lost entries refuse, repair keeps intact ones")
    func seeded() throws {
        var random = SplitMix64(seed: 0x5AA9_5407)
        let directory = try TemporaryDirectory("snapshot-seed")
        defer { directory.remove() }
        let users = 7
        let (_, original) = try Self.compacted(users: users, in: directory)
        let (offsets, entryUsers) = try Self.records(original)
        var counts: [String: Int] = [:]
        for number in 0..<240 {
            let kind = DamagedJournal.Kind.allCases[(number / 3) % 3]
            let last = offsets[offsets.count - 1]
            let offset =
                switch number % 3 {
                case 0: original.count
                case 1: Int.random(in: last..<original.count, using: &random)
                default: Int.random(in: 0..<last, using: &random)
                }
            let damaged = DamagedJournal(original: original, offsets: offsets, kind: kind, offset: offset, using: &random)
            let label = "snapshot case \(number): \(kind) at \(offset)"
            let data = directory.child("s\(number)")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: data) }
            try damaged.bytes.write(to: data.appendingPathComponent("customizations.snapshot"))
            let intactUsers = Set(damaged.intact.compactMap { entryUsers[$0] })
            switch damaged.expectation(magicCount: SnapshotFile.magic.count) {
            case .clean:
                counts["unchanged bytes, opens", default: 0] += 1
                let store = try retryingWhileLocked { try FileStore(directory: data, logger: .silent) }
                #expect(Self.present(store, users: users).count == users, "\(label)")
                store.close()
            case .tornTail(let kept, _) where kept == offsets.count:
                counts["junk after every entry, opens", default: 0] += 1
                let store = try retryingWhileLocked { try FileStore(directory: data, logger: .silent) }
                #expect(Self.present(store, users: users).count == users, "\(label)")
                store.close()
            case .tornTail, .middle:
                counts["entries damaged, refuses", default: 0] += 1
                let refusal = #expect(throws: StoreOpenError.self, "\(label)") {
                    try retryingWhileLocked { try FileStore(directory: data, logger: .silent) }
                }
                #expect(refusal?.directoryInUse == false, "\(label)")
                _ = try retryingWhileLocked { try StoreRecovery.repair(directory: data, logger: .silent) }
                #expect(try StoreRecovery.verify(directory: data).isClean, "\(label)")
                let store = try retryingWhileLocked { try FileStore(directory: data, logger: .silent) }
                #expect(Set(Self.present(store, users: users)) == intactUsers, "\(label): repair keeps every intact entry")
                store.close()
                counts["repaired, opens with every intact entry", default: 0] += 1
            }
        }
        print("seeded snapshot damage: 240 cases\n" + counts.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }.joined(separator: "\n"))
    }
}
