import Foundation
import TabBarModel
import Testing
import TestSupport
@testable import TabBarStore

@Suite("Record JSON: the direct writer and the fast reader agree with Codable")
struct RecordJSONTests {
    private static let texts = ["home", "u42", "", "a\"b", "back\\slash", "new\nline", "tab\t", "\u{1}ctl", "ünï", "✓/x", "🚀"]

    private static func randomRecord(_ generator: inout SplitMix64) -> JournalRecord {
        func text() -> String { texts.randomElement(using: &generator)! }
        let key = CustomizationKey(client: text(), user: text())
        let sequence: UInt64? = Bool.random(using: &generator) ? generator.next() : nil
        switch generator.next() % 4 {
        case 0:
            return JournalRecord(sequence: sequence, change: .delete(key, revision: generator.next()))
        case 1:
            let version: Int? = Bool.random(using: &generator) ? Int(generator.next() >> 2) : nil
            return JournalRecord(sequence: sequence, change: .deleteClient(text(), lastVersion: version))
        default:
            let tabs = (0..<Int(generator.next() % 3)).map { _ in
                DynamicTab(
                    template: text(), name: text(),
                    parameters: Dictionary((0..<Int(generator.next() % 3)).map { _ in (text(), text()) }) { $1 },
                    title: Bool.random(using: &generator) ? text() : nil)
            }
            let value: StoredCustomization? = generator.next() % 5 == 0
                ? nil
                : StoredCustomization(
                    order: (0..<Int(generator.next() % 6)).map { _ in text() }, hidden: [text()], dynamicTabs: tabs)
            return JournalRecord(sequence: sequence, change: .put(key, revision: generator.next(), value: value))
        }
    }

    private static func fastDecode(_ data: Data) throws -> JournalRecord {
        try data.withUnsafeBytes { try JournalRecord.decode(json: $0, decoder: JSONDecoder()) }
    }

    @Test("5,000 random records: written directly, read by Codable and by the fast path; Codable output read fast")
    func roundTrips() throws {
        var generator = SplitMix64(seed: 99)
        for _ in 0..<5000 {
            let record = Self.randomRecord(&generator)
            let direct = record.json()
            #expect(try JSONDecoder().decode(JournalRecord.self, from: direct) == record)
            #expect(try Self.fastDecode(direct) == record)
            #expect(try Self.fastDecode(JSONEncoder().encode(record)) == record)
        }
    }

    @Test("the bytes written are the journal's format, escapes included")
    func writtenBytes() {
        let put = JournalRecord(
            sequence: 7,
            change: .put(.init(client: "c", user: "u\"\\\n\r\t\u{1}é"), revision: 3, value: .init(order: ["a"], hidden: []))
        )
        #expect(
            String(decoding: put.json(), as: UTF8.self)
                == #"{"seq":7,"op":"put","client":"c","user":"u\"\\\n\r\t\u0001é","revision":3,"value":{"order":["a"],"hidden":[]}}"#)
        let reset = JournalRecord(sequence: nil, change: .put(.init(client: "c", user: "u"), revision: 0, value: nil))
        #expect(String(decoding: reset.json(), as: UTF8.self) == #"{"op":"put","client":"c","user":"u","revision":0,"value":null}"#)
        let delete = JournalRecord(sequence: 1, change: .delete(.init(client: "c", user: "u"), revision: 18_446_744_073_709_551_615))
        #expect(
            String(decoding: delete.json(), as: UTF8.self)
                == #"{"seq":1,"op":"delete","client":"c","user":"u","revision":18446744073709551615}"#)
        let client = JournalRecord(sequence: 2, change: .deleteClient("c", lastVersion: 5))
        #expect(String(decoding: client.json(), as: UTF8.self) == #"{"seq":2,"op":"deleteClient","client":"c","lastVersion":5}"#)
    }

    @Test("the usual record is read without JSONDecoder")
    func usualRecordIsFast() throws {
        let record = JournalRecord(
            sequence: 7,
            change: .put(.init(client: "ios-phone", user: "u1"), revision: 3, value: .init(order: ["home", "search"], hidden: []))
        )
        let parsed = try record.json().withUnsafeBytes { try RecordJSONReader.record($0) }
        #expect(parsed == record)
        let tabs = [
            DynamicTab(template: "document", name: "q3-report", parameters: ["docId": "42"], title: "Q3 report"),
            DynamicTab(template: "web", name: "news"),
        ]
        let opened = JournalRecord(
            sequence: 8,
            change: .put(
                .init(client: "ios-phone", user: "u1"), revision: 4,
                value: .init(order: ["document:q3-report"], hidden: [], dynamicTabs: tabs)))
        #expect(try opened.json().withUnsafeBytes { try RecordJSONReader.record($0) } == opened)
    }

    @Test(
        "payloads outside the fast path mean what JSONDecoder says",
        arguments: [
            #"{"op":"put","client":"c","user":"u","revision":2,"value":{"order":["a"],"hidden":[],"extra":1}}"#,
            #"{"op":"put","client":"c","user":"u","revision":2,"value":{"order":"a"}}"#,
            #"{"op":"put","client":"c","user":"u","revision":2,"value":null,"unknown":[1,{"x":null}]}"#,
            #" {"seq":1,"op":"delete","client":"c","user":"u","revision":2}"#,
            #"{"seq":null,"op":"deleteClient","client":"c","lastVersion":null}"#,
            #"{"op":"put","client":"c","user":"u","revision":2}"#,
            #"{"op":"put","client":"c\u0041","user":"u","revision":2,"value":{"order":[],"hidden":[]}}"#,
        ]
    )
    func fallsBackToCodable(payload: String) throws {
        let data = Data(payload.utf8)
        let expected = try JSONDecoder().decode(JournalRecord.self, from: data)
        #expect(try Self.fastDecode(data) == expected)
    }

    @Test(
        "malformed payloads still fail",
        arguments: [
            #"{"op":"put","client":"c","user":"u","revision":-1,"value":null}"#,
            #"{"op":"explode","client":"c"}"#,
            #"{"op":"put","client":"c","user":"u","revision":2,"value":null"#,
            "",
        ]
    )
    func malformedFails(payload: String) {
        #expect(throws: (any Error).self) { try Self.fastDecode(Data(payload.utf8)) }
    }

    @Test("2,000 random change notices: encoded by Codable, read back by ChangeNotice.read (fast path or Codable) unchanged")
    func noticesRoundTrip() throws {
        var generator = SplitMix64(seed: 15)
        func text() -> String { Self.texts.randomElement(using: &generator)! }
        for _ in 0..<2000 {
            let kind = [
                ChangeNotice.Kind.published, .deleted, .customization, .customizations, .build, .rollouts, .changes,
            ]
                .randomElement(using: &generator)!
            var notice = ChangeNotice(kind: kind, origin: UUID().uuidString, client: text())
            switch kind {
            case .published:
                notice.version = Int(generator.next() % 1000)
                notice.prunedThrough = Int(generator.next() % 1000) - 500
            case .deleted:
                notice.version = Int(generator.next() % 1000)
            case .rollouts, .changes:
                break
            case .build:
                notice.platform = text()
                notice.appVersion = text()
                notice.revision = Int64(generator.next() >> 2)
            case .customization:
                notice.user = text()
                notice.revision = Int64(generator.next() >> 2)
                switch generator.next() % 3 {
                case 0: notice.value = StoredCustomization(order: [text(), text()], hidden: [text()])
                case 1: notice.fetch = true
                default: break
                }
            case .customizations:
                notice.entries = (0..<Int(generator.next() % 4)).map { index in
                    var entry = ChangeNotice.Entry(user: text(), revision: Int64(generator.next() >> 2))
                    if index % 2 == 0 {
                        entry.value = StoredCustomization(order: [text()], hidden: [text(), text()])
                    } else {
                        entry.fetch = true
                    }
                    return entry
                }
            }
            #expect(try ChangeNotice.read(notice.payload()) == notice)
        }
    }

    @Test("a tab-order notice as PostgreSQL's json_build_object writes it is read by the fast path")
    func postgresNotice() throws {
        let payload = """
            {"k" : "c", "o" : "4C1B", "c" : "ios", "u" : "u1", "r" : 7, "j" : {"order": ["home", "search"], "hidden": []}}
            """
        let fast = try payload.data(using: .utf8)!.withUnsafeBytes { try RecordJSONReader.notice($0) }
        #expect(
            fast
                == ChangeNotice(
                    kind: .customization, origin: "4C1B", client: "ios", user: "u1", revision: 7,
                    value: StoredCustomization(order: ["home", "search"], hidden: [])))
        let large = #"{"k" : "c", "o" : "4C1B", "c" : "ios", "u" : "u1", "r" : 8, "f" : true}"#
        let fetch = try large.data(using: .utf8)!.withUnsafeBytes { try RecordJSONReader.notice($0) }
        #expect(fetch == ChangeNotice(kind: .customization, origin: "4C1B", client: "ios", user: "u1", revision: 8, fetch: true))
    }

    @Test("a batch notice as tabconfig_save_batch writes it (json_build_object entries) is read by the fast path")
    func postgresBatchNotice() throws {
        let payload = """
            {"k":"cs","o":"4C1B","c":"ios","e":[{"u" : "u1", "r" : 7, "j" : {"order": ["home"], "hidden": []}},\
            {"u" : "u2", "r" : 3, "f" : true}]}
            """
        let fast = try payload.data(using: .utf8)!.withUnsafeBytes { try RecordJSONReader.notice($0) }
        #expect(
            fast
                == ChangeNotice(
                    kind: .customizations, origin: "4C1B", client: "ios",
                    entries: [
                        ChangeNotice.Entry(
                            user: "u1", revision: 7, value: StoredCustomization(order: ["home"], hidden: [])),
                        ChangeNotice.Entry(user: "u2", revision: 3, fetch: true),
                    ]))
    }
}
