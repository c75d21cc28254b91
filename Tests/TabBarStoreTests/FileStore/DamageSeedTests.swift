import Foundation
import Logging
import Synchronization
import Testing
import TestSupport
@testable import TabBarStore

/// Seeded damage over thousands of cases: garbage appended, overwritten or zero-filled at every offset of the last
/// record and at random offsets before it. Tail damage always opens with every record before the damage; damage with
/// an intact record after it always refuses; repair always keeps every intact record.
@Suite("seeded damage: torn tails open, middle damage refuses, repair keeps every valid record")
struct DamageSeedTests {
    /// Case counts by kind, position and outcome, and further checks, printed at the end of each test for the record.
    private final class Tally: Sendable {
        private let counts = Mutex<[String: Int]>([:])
        private let details = Mutex<[String: Int]>([:])

        func add(_ key: String) {
            counts.withLock { $0[key, default: 0] += 1 }
        }

        /// Counts something checked besides the case's outcome (printed after the outcomes, not in the total).
        func addDetail(_ key: String) {
            details.withLock { $0[key, default: 0] += 1 }
        }

        var total: Int {
            counts.withLock { $0.values.reduce(0, +) }
        }

        func report(_ title: String) {
            let lines = counts.withLock { $0.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" } }
            let detailLines = details.withLock { $0.sorted { $0.key < $1.key }.map { "  + \($0.key): \($0.value)" } }
            print("\(title): \(total) cases\n" + (lines + detailLines).joined(separator: "\n"))
        }
    }

    /// A journal of `count` puts with payloads of varying length; returns its bytes, record offsets and users.
    private static func journal(records count: Int, using random: inout SplitMix64) -> (Data, [Int], [String]) {
        var payloads: [String] = []
        var users: [String] = []
        for index in 0..<count {
            let user = "u\(index)"
            let tabs = (0..<Int.random(in: 1...12, using: &random)).map { "\"tab-\(index)-\($0)\"" }
            payloads.append(
                #"{"op":"put","seq":\#(index + 1),"client":"c1","user":"\#(user)","revision":1,"#
                    + #""value":{"order":[\#(tabs.joined(separator: ","))],"hidden":[]}}"#
            )
            users.append(user)
        }
        let bytes = HandMadeJournal.bytes(payloads)
        var offsets: [Int] = []
        _ = bytes.withUnsafeBytes { raw in
            RecordFraming.scan(raw, from: JournalFile.magic.count) { offsets.append($0.offset) }
        }
        return (bytes, offsets, users)
    }

    /// Every (kind, offset) case: every offset of the last record (and the end, for appending), then `before` random
    /// offsets before it.
    private static func cases(
        offsets: [Int], size: Int, before: Int, using random: inout SplitMix64
    ) -> [(kind: DamagedJournal.Kind, offset: Int, inLast: Bool)] {
        let last = offsets[offsets.count - 1]
        var cases: [(DamagedJournal.Kind, Int, Bool)] = []
        for kind in DamagedJournal.Kind.allCases {
            for offset in last..<size { cases.append((kind, offset, true)) }
            if kind == .appended { cases.append((kind, size, true)) }
            for _ in 0..<before { cases.append((kind, Int.random(in: 0..<last, using: &random), false)) }
        }
        return cases
    }

    /// The users whose records `table` holds, in record order.
    private static func users(in table: CustomizationTable, of users: [String]) -> [String] {
        users.filter { table.entry(CustomizationKey(client: "c1", user: $0)) != nil }
    }

    private static func sideFiles(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(SideFile.marker) }.sorted()
    }

    @Test("journal scan, open and repair over thousands of seeded cases")
    func journalCases() throws {
        let tally = Tally()
        var random = SplitMix64(seed: 0xDA3A_6E5E_ED01)
        let root = try TemporaryDirectory("damage-seed")
        defer { root.remove() }
        var caseNumber = 0
        for round in 0..<6 {
            let (original, offsets, users) = Self.journal(records: 6 + round * 2, using: &random)
            for damageCase in Self.cases(offsets: offsets, size: original.count, before: 120, using: &random) {
                caseNumber += 1
                let damaged = DamagedJournal(
                    original: original, offsets: offsets, kind: damageCase.kind, offset: damageCase.offset,
                    using: &random
                )
                let label = "case \(caseNumber): \(damageCase.kind) at \(damageCase.offset) (round \(round))"
                let expectation = damaged.expectation(magicCount: JournalFile.magic.count)
                let position = damageCase.inLast ? "last record" : "before the last record"
                switch expectation {
                case .clean: tally.add("\(damageCase.kind), \(position): unchanged bytes, clean")
                case .tornTail: tally.add("\(damageCase.kind), \(position): torn tail")
                case .middle: tally.add("\(damageCase.kind), \(position): middle damage")
                }
                Self.checkScan(damaged, expectation, label: label)
                if caseNumber.isMultiple(of: 8) {
                    try Self.checkFiles(damaged, expectation, in: root.child("c\(caseNumber)"), users: users, label: label)
                    tally.addDetail("real files: every 8th case opened from one")
                    if case .middle = expectation { tally.addDetail("real files: middle damage among them, repaired") }
                }
            }
        }
        tally.report("seeded journal damage")
        #expect(tally.total >= 3000)
    }

    /// Checks in memory what the scan makes of the damaged bytes (open's view: which records replay, where the
    /// damage starts, whether a valid record follows and how many), and what repair's survey keeps (exactly the intact
    /// records, with the damaged ranges and the kept records covering every byte).
    private static func checkScan(
        _ damaged: DamagedJournal, _ expectation: DamagedJournal.Expectation, label: String
    ) {
        let magic = JournalFile.magic
        let magicIntact = damaged.bytes.prefix(magic.count) == magic
        damaged.bytes.withUnsafeBytes { raw in
            var visited: [Int] = []
            let outcome: RecordFraming.Outcome =
                magicIntact
                ? RecordFraming.scan(raw, from: magic.count) { visited.append($0.offset) }
                : .damaged(
                    RecordFraming.Damage(
                        offset: 0, reason: "bad journal header",
                        nextValid: RecordFraming.firstValidRecord(in: raw, from: 1)
                    )
                )
            switch expectation {
            case .clean:
                #expect(outcome == .clean, "\(label)")
                #expect(visited == damaged.offsets, "\(label)")
            case .tornTail(let kept, let cut):
                guard case .damaged(let damage) = outcome else {
                    Issue.record("\(label): expected a torn tail, the scan says \(outcome)")
                    return
                }
                #expect(damage.isTornTail, "\(label): \(damage)")
                #expect(damage.offset == (magicIntact ? cut : 0), "\(label)")
                #expect(visited == Array(damaged.offsets.prefix(kept)), "\(label)")
            case .middle(let offset, let following):
                guard case .damaged(let damage) = outcome, let next = damage.nextValid else {
                    Issue.record("\(label): expected middle damage, the scan says \(outcome)")
                    return
                }
                #expect(damage.offset == offset, "\(label)")
                #expect(RecordFraming.validRecordCount(in: raw, from: next) == following, "\(label)")
                #expect(visited == damaged.offsets.filter { $0 < offset }, "\(label)")
            }
            let survey = FramedSurvey(raw, magic: magic) { _ in nil }
            #expect(survey.frames.map(\.offset) == damaged.intact.map { damaged.offsets[$0] }, "\(label)")
            let covered =
                survey.damage.reduce(0) { $0 + $1.length } + survey.frames.reduce(0) { $0 + $1.end - $1.offset }
                + (magicIntact ? magic.count : 0)
            #expect(covered == damaged.bytes.count, "\(label): damaged ranges and kept records cover every byte")
        }
    }

    /// Opens the damaged journal from a real file in `data` and checks the result: a torn tail opens with the records
    /// before it, truncated at the damage, the dropped bytes in one side file; middle damage refuses, naming the file,
    /// offset, following count and command, and leaves the file alone; then repair keeps every intact record.
    private static func checkFiles(
        _ damaged: DamagedJournal, _ expectation: DamagedJournal.Expectation, in data: URL, users: [String],
        label: String
    ) throws {
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let path = data.appendingPathComponent("customizations.journal").path
        try damaged.bytes.write(to: URL(fileURLWithPath: path))
        var table = CustomizationTable()
        let opened = Result {
            try JournalFile.open(path, io: FileIO(), logger: .silent, snapshotSequence: 0, into: &table)
        }
        switch expectation {
        case .clean:
            guard case .success(let journal) = opened else {
                Issue.record("\(label): \(opened)")
                return
            }
            journal.journal.close()
            #expect(Self.users(in: table, of: users) == users, "\(label)")
        case .tornTail(let kept, let cut):
            guard case .success(let journal) = opened else {
                Issue.record("\(label): \(opened)")
                return
            }
            journal.journal.close()
            #expect(Self.users(in: table, of: users) == Array(users.prefix(kept)), "\(label)")
            #expect(journal.journal.size == cut, "\(label)")
            let sides = try Self.sideFiles(in: data)
            #expect(sides.count == 1, "\(label)")
            if let side = sides.first {
                let moved = try Data(contentsOf: data.appendingPathComponent(side))
                let magicIntact = damaged.bytes.prefix(JournalFile.magic.count) == JournalFile.magic
                #expect(moved == damaged.bytes[(magicIntact ? cut : 0)...], "\(label): the side file holds the dropped bytes")
            }
        case .middle(let offset, let following):
            #expect(throws: StoreOpenError.self, "\(label)") { try opened.get() }
            if case .failure(let error as StoreOpenError) = opened {
                #expect(error.description.contains(path), "\(label)")
                #expect(error.description.contains("byte offset \(offset) ("), "\(label): \(error)")
                #expect(error.description.contains("\(following) valid record"), "\(label): \(error)")
                #expect(error.description.contains("tabconfig store repair --data-dir \(data.path)"), "\(label)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged.bytes, "\(label): untouched")
            #expect(try Self.sideFiles(in: data).isEmpty, "\(label)")
            try Self.repairKeepsIntactRecords(damaged, data: data, users: users, label: label)
        }
    }

    /// Repairs the damaged journal (written fresh to `data`) and checks that every intact record survives, that the
    /// side files plus the kept records account for every byte, and that verify then finds nothing.
    private static func repairKeepsIntactRecords(
        _ damaged: DamagedJournal, data: URL, users: [String], label: String
    ) throws {
        let report = try retryingWhileLocked { try StoreRecovery.repair(directory: data, logger: .silent) }
        let journal = try #require(report.files.first { $0.kind == .journal }, "\(label)")
        let intact = damaged.intact
        #expect(journal.validRecords == intact.count, "\(label)")
        let path = data.appendingPathComponent("customizations.journal").path
        var table = CustomizationTable()
        let reopened = try JournalFile.open(path, io: FileIO(), logger: .silent, snapshotSequence: 0, into: &table)
        reopened.journal.close()
        #expect(Self.users(in: table, of: users) == intact.map { users[$0] }, "\(label): repair keeps every intact record")
        let moved = try journal.sideFiles.reduce(0) { $0 + (try Data(contentsOf: URL(fileURLWithPath: $1)).count) }
        let repaired = try Data(contentsOf: URL(fileURLWithPath: path))
        let magicIntact = damaged.bytes.prefix(JournalFile.magic.count) == JournalFile.magic
        #expect(
            moved + repaired.count - (magicIntact ? 0 : JournalFile.magic.count) == damaged.bytes.count,
            "\(label): every byte is either kept or in a side file"
        )
        #expect(try StoreRecovery.verify(directory: data).isClean, "\(label)")
    }

    @Test("a full FileStore over hundreds of seeded cases: torn tails open, middle damage refuses, repair keeps all")
    func fileStoreCases() throws {
        let tally = Tally()
        var random = SplitMix64(seed: 0xF11E_5702_E5EE)
        let root = try TemporaryDirectory("damage-store")
        defer { root.remove() }
        let (original, offsets, users) = Self.journal(records: 8, using: &random)
        let all = Self.cases(offsets: offsets, size: original.count, before: 100, using: &random)
        for number in 0..<300 {
            let damageCase = all[Int.random(in: 0..<all.count, using: &random)]
            let damaged = DamagedJournal(
                original: original, offsets: offsets, kind: damageCase.kind, offset: damageCase.offset, using: &random
            )
            let label = "store case \(number): \(damageCase.kind) at \(damageCase.offset)"
            let data = root.child("s\(number)")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: data) }
            try damaged.bytes.write(to: data.appendingPathComponent("customizations.journal"))
            let present = { (store: FileStore) in
                users.filter { store.customization(client: "c1", user: $0) != nil }
            }
            switch damaged.expectation(magicCount: JournalFile.magic.count) {
            case .clean:
                tally.add("unchanged bytes, opens clean")
                let store = try retryingWhileLocked { try FileStore(directory: data, logger: .silent) }
                #expect(present(store) == users, "\(label)")
                store.close()
            case .tornTail(let kept, _):
                tally.add("torn tail, opens")
                let capture = LogCapture()
                let store = try retryingWhileLocked { try FileStore(directory: data, logger: capture.logger) }
                #expect(present(store) == Array(users.prefix(kept)), "\(label)")
                #expect(capture.warnings.contains { $0.metadata["sideFile"] != nil }, "\(label)")
                _ = try store.saveCustomization(
                    client: "c1", user: "after", StoredCustomization(order: ["x"], hidden: []), expectedRevision: 0
                )
                store.close()
                let reopened = try retryingWhileLocked { try FileStore(directory: data, logger: .silent) }
                #expect(present(reopened) == Array(users.prefix(kept)), "\(label)")
                #expect(reopened.customization(client: "c1", user: "after")?.revision == 1, "\(label)")
                reopened.close()
            case .middle:
                tally.add("middle damage, refuses")
                let refusal = #expect(throws: StoreOpenError.self, "\(label)") {
                    try retryingWhileLocked { try FileStore(directory: data, logger: .silent) }
                }
                #expect(refusal?.directoryInUse == false, "\(label)")
                _ = try retryingWhileLocked { try StoreRecovery.repair(directory: data, logger: .silent) }
                let store = try retryingWhileLocked { try FileStore(directory: data, logger: .silent) }
                #expect(present(store) == damaged.intact.map { users[$0] }, "\(label)")
                store.close()
                tally.addDetail("middle damage repaired, then opens with every intact record")
            }
        }
        tally.report("seeded FileStore damage")
    }
}
