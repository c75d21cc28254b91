#if PostgreSQL
import Foundation
import Synchronization
import TabBarModel
import Testing
import TestSupport
@testable import TabBarStore

/// What the PostgreSQL store shows beyond the conformance suite: several stores on one database (the replicas of a
/// deployment, here in one process) and its schema migrations.
@Suite("PostgreSQL store")
struct PostgresStoreTests {
    private static func open(_ url: String) throws -> PostgresStore {
        try PostgresStore(url: try #require(PostgresStoreURL(url)), logger: .silent)
    }

    /// One save submitted through the completion API.
    private struct Save {
        var client = "ios"
        var user: String
        var value: StoredCustomization
        var expected: UInt64?
    }

    /// Submits the saves one after another without waiting (so that they are batched) and returns each one's outcome
    /// once every completion was called.
    private static func submit(_ saves: [Save], to store: PostgresStore) throws -> [Result<CustomizationEntry, any Error>] {
        let outcomes = Mutex<[Int: Result<CustomizationEntry, any Error>]>([:])
        let done = DispatchGroup()
        for (index, save) in saves.enumerated() {
            done.enter()
            store.saveCustomization(
                client: save.client, user: save.user, save.value, expectedRevision: save.expected
            ) { outcome in
                outcomes.withLock { $0[index] = outcome }
                done.leave()
            }
        }
        try #require(done.wait(timeout: .now() + 60) == .success, "every completion is called")
        return try outcomes.withLock { outcomes in try saves.indices.map { try #require(outcomes[$0]) } }
    }

    @Test("ten stores opening at once on an empty database apply each migration once")
    func concurrentMigrations() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let stores = Concurrently.run(10) { _ in Result { try Self.open(url) } }
        let opened = stores.compactMap { try? $0.get() }
        defer { opened.forEach { $0.close() } }
        #expect(opened.count == 10)
        let applied = try TestPostgres.sql(url, "SELECT version FROM tabconfig_migrations ORDER BY version")
        #expect(applied == (1...PostgresMigrations.all.count).map(String.init).joined(separator: "\n"))
    }

    @Test("saves racing through two stores on one database with the same expected revision: exactly one wins")
    func conditionalSavesAcrossStores() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let replicas = [try Self.open(url), try Self.open(url)]
        defer { replicas.forEach { $0.close() } }
        _ = try replicas[0].saveCustomization(
            client: "ios", user: "u", StoredCustomization(order: ["a"], hidden: []), expectedRevision: nil)
        for round in 1...5 {
            let outcomes = Concurrently.run(8) { thread in
                Result {
                    try replicas[thread % 2].saveCustomization(
                        client: "ios", user: "u", StoredCustomization(order: ["t\(thread)"], hidden: []),
                        expectedRevision: UInt64(round))
                }
            }
            let winners = outcomes.compactMap { try? $0.get() }
            #expect(winners.map(\.revision) == [UInt64(round + 1)], "round \(round)")
            #expect(outcomes.filter { (try? $0.get()) == nil }.count == 7, "round \(round)")
            let owner = replicas[outcomes.firstIndex { (try? $0.get()) != nil }! % 2]
            #expect(owner.customization(client: "ios", user: "u") == winners.first)
        }
        let stored = try TestPostgres.sql(url, "SELECT revision FROM tabconfig_customizations WHERE user_id = 'u'")
        #expect(stored == "6")
    }

    @Test("two stores on one database: rollout counts add up, one state write of two decided alike wins, the other store hears of it")
    func rolloutStatesAcrossStores() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let a = try Self.open(url)
        defer { a.close() }
        let b = try Self.open(url)
        defer { b.close() }
        let heard = Mutex<[StoreChange]>([])
        b.observeChanges { change in heard.withLock { $0.append(change) } }
        let start = RolloutState(client: "shop", tab: "cart", plan: "p", stageStartedAt: Date(), updatedAt: Date())
        let first = try #require(try a.writeRolloutState(start, replacing: nil, audit: nil))
        #expect(eventually { b.rolloutStates(client: "shop") == [first] })
        #expect(heard.withLock { $0 }.contains(.rollouts(client: "shop")))

        _ = try a.addRolloutCounts(client: "shop", tab: "cart", plan: "p", stage: 0, opened: 10, failed: 1)
        _ = try b.addRolloutCounts(client: "shop", tab: "cart", plan: "p", stage: 0, opened: 5, failed: 2)
        let judged = try #require(try a.currentRolloutStates(client: "shop").first)
        #expect(judged.opened == 15 && judged.failed == 3, "every store's counts add up")

        var advanced = judged
        advanced.stage = 1
        advanced.opened = 0
        advanced.failed = 0
        let outcomes = Mutex<[RolloutState?]>([])
        let decided = advanced
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let store = index == 0 ? a : b
            let written = try? store.writeRolloutState(decided, replacing: judged, audit: nil)
            outcomes.withLock { $0.append(written ?? nil) }
        }
        #expect(outcomes.withLock { $0.compactMap { $0 } }.count == 1, "exactly one of two stores acting alike writes")
        #expect(try b.currentRolloutStates(client: "shop").map(\.stage) == [1])
    }

    @Test("a store opened after another's writes reads them all; its saves continue their numbering")
    func secondStoreSeesFirst() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let first = try Self.open(url)
        defer { first.close() }
        let value = StoredCustomization(order: ["b", "a"], hidden: ["a"])
        let version = try first.publish(client: "ios", document: Data(#"{"tabs":[]}"#.utf8), note: "n", rollbackOf: nil)
        let saved = try first.saveCustomization(client: "ios", user: "u", value, expectedRevision: nil)
        let second = try Self.open(url)
        defer { second.close() }
        #expect(second.liveVersion(client: "ios") == version)
        #expect(second.customization(client: "ios", user: "u") == saved)
        #expect(try second.saveCustomization(client: "ios", user: "u", value, expectedRevision: 1).revision == 2)
        #expect(try second.publish(client: "ios", document: Data("{}".utf8), note: nil, rollbackOf: nil).version == 2)
    }

    @Test("saves that complete later: every completion called once, revisions in order, all committed")
    func savesWithCompletion() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let store = try Self.open(url)
        defer { store.close() }
        let saves = (0..<200).map { Save(user: "u\($0 % 20)", value: StoredCustomization(order: ["t\($0)"], hidden: [])) }
        let entries = try Self.submit(saves, to: store).map { try $0.get() }
        #expect(Set(entries.map(\.revision)) == Set(1...10))
        #expect(store.customizationCount == 20)
        for user in 0..<20 {
            #expect(store.customization(client: "ios", user: "u\(user)")?.revision == 10)
        }
        #expect(try TestPostgres.sql(url, "SELECT sum(revision) FROM tabconfig_customizations") == "200")
    }

    @Test("saves submitted together (batched): each one's own expected revision decides, a key saved twice takes two revisions in order")
    func mixedBatch() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let store = try Self.open(url)
        defer { store.close() }
        func value(_ tab: String) -> StoredCustomization { StoredCustomization(order: [tab], hidden: []) }
        for user in ["match", "stale", "taken"] {
            _ = try store.saveCustomization(client: "ios", user: user, value("old"), expectedRevision: nil)
        }
        _ = try store.saveCustomization(client: "ios", user: "stale", value("old"), expectedRevision: nil)
        _ = try store.saveCustomization(client: "ios", user: "reset", value("old"), expectedRevision: nil)
        #expect(try store.deleteCustomization(client: "ios", user: "reset"))

        let saves: [(user: String, tab: String, expected: UInt64?, revision: UInt64?)] = [
            ("match", "a", 1, 2), ("stale", "b", 1, nil), ("taken", "c", 0, nil), ("reset", "d", 0, 3),
            ("new", "e", 0, 1), ("plain", "f", nil, 1), ("twice", "g", nil, 1), ("twice", "h", nil, 2),
            ("twice", "i", 2, 3), ("twice", "j", 2, nil),
        ]
        let outcomes = try Self.submit(
            saves.map { Save(user: $0.user, value: value($0.tab), expected: $0.expected) }, to: store)
        for (index, save) in saves.enumerated() {
            let outcome = outcomes[index]
            switch (outcome, save.revision) {
            case (.success(let entry), let revision?):
                #expect(entry.revision == revision && entry.value == value(save.tab), "save \(index)")
            case (.failure(let error), nil):
                #expect(error as? StoreError == .revisionMismatch, "save \(index)")
            default:
                Issue.record("save \(index) (\(save.user)): \(outcome), expected revision \(String(describing: save.revision))")
            }
        }
        #expect(store.customization(client: "ios", user: "twice") == CustomizationEntry(revision: 3, value: value("i")))
        #expect(
            try TestPostgres.sql(
                url, "SELECT string_agg(user_id || ':' || revision || ':' || (value->'order'->>0), ' ' ORDER BY user_id) FROM tabconfig_customizations")
                == "match:2:a new:1:e plain:1:f reset:3:d stale:2:old taken:1:old twice:3:i")
    }

    @Test("each write on one store reaches another on the same database through its notice, config changes reported")
    func notices() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let writer = try Self.open(url)
        defer { writer.close() }
        let reader = try Self.open(url)
        defer { reader.close() }
        let changes = Mutex<[StoreChange]>([])
        reader.observeChanges { change in changes.withLock { $0.append(change) } }
        writer.observeChanges { _ in Issue.record("a store's own writes are not reported to it") }

        let version = try writer.publish(client: "ios", document: Data(#"{"tabs":[1]}"#.utf8), note: "n", rollbackOf: nil)
        #expect(eventually { reader.liveVersion(client: "ios") == version })
        let value = StoredCustomization(order: ["b", "a"], hidden: ["a"])
        let saved = try writer.saveCustomization(client: "ios", user: "u", value, expectedRevision: nil)
        #expect(eventually { reader.customization(client: "ios", user: "u") == saved })
        let opened = StoredCustomization(
            order: ["document:q3"], hidden: [],
            dynamicTabs: [DynamicTab(template: "document", name: "q3", parameters: ["docId": "42"], title: "Q3 \"ü\"")])
        let withTabs = try writer.saveCustomization(client: "ios", user: "o", opened, expectedRevision: nil)
        #expect(eventually { reader.customization(client: "ios", user: "o") == withTabs }, "open tabs in the notice")
        #expect(try writer.deleteCustomization(client: "ios", user: "o"))
        #expect(eventually { reader.customization(client: "ios", user: "o") == nil })
        let large = StoredCustomization(order: (0..<600).map { "tab-\($0)" }, hidden: [])
        let big = try writer.saveCustomization(client: "ios", user: "big", large, expectedRevision: nil)
        #expect(eventually { reader.customization(client: "ios", user: "big") == big }, "read from its row")
        #expect(try writer.deleteCustomization(client: "ios", user: "big"))
        #expect(eventually { reader.customization(client: "ios", user: "big") == nil })
        #expect(eventually { reader.customizationCount == 1 })
        let second = try writer.publish(client: "ios", document: Data("{}".utf8), note: nil, rollbackOf: 1)
        #expect(eventually { reader.versionNumbers(client: "ios") == [1, 2] })
        #expect(reader.liveVersion(client: "ios") == second)
        #expect(try writer.deleteClient("ios"))
        #expect(eventually { reader.liveVersion(client: "ios") == nil && reader.customizationCount == 0 })
        #expect(reader.customization(client: "ios", user: "u") == nil)
        #expect(reader.clientIDs() == [])
        #expect(try reader.saveCustomization(client: "ios", user: "u", value, expectedRevision: 0).revision == 2)
        #expect(eventually { changes.withLock { $0.count } == 3 })
        #expect(
            changes.withLock { $0 } == [.published(client: "ios"), .published(client: "ios"), .deleted(client: "ios")])
    }

    @Test("a batch of saves near the inline limit, with the longest user ids, reaches another store: its notices fit")
    func batchedNotices() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let stores = [try Self.open(url), try Self.open(url)]
        defer { stores.forEach { $0.close() } }
        // Values of the most bytes an entry holds inline, a few bytes more (read from their row), and short ones.
        func order(_ tabs: Int) -> StoredCustomization {
            StoredCustomization(order: (0..<tabs).map { String(format: "tab-%05d", $0) }, hidden: [])
        }
        var inline = 1
        while try PostgresStore.json(order(inline + 1)).utf8.count <= ChangeNotice.maximumBatchedValue { inline += 1 }
        func user(_ index: Int) -> String { String(repeating: "u", count: 124) + String(format: "%04d", index) }
        func client(_ index: Int) -> String { index % 2 == 0 ? "ios" : "android" }
        let saves = (0..<90).map {
            Save(client: client($0), user: user($0), value: order([inline, inline + 1, 2][$0 % 3]))
        }
        let entries = try Self.submit(saves, to: stores[0]).map { try $0.get() }
        #expect(entries.allSatisfy { $0.revision == 1 })
        #expect(eventually { stores[1].customizationCount == saves.count })
        for index in saves.indices {
            #expect(stores[1].customization(client: client(index), user: user(index)) == entries[index], "save \(index)")
        }
    }

    @Test("the save procedure of migration 3 holds the notice channel and limits ChangeNotice reads with")
    func saveProcedureLiterals() throws {
        let procedure = try #require(PostgresMigrations.all.count >= 3 ? PostgresMigrations.all[2].joined() : nil)
        #expect(procedure.contains("pg_notify('\(ChangeNotice.channel)'"))
        #expect(procedure.contains("octet_length(i.value) <= \(ChangeNotice.maximumBatchedValue)"))
        #expect(procedure.contains("octet_length(entry) - 1) / \(ChangeNotice.batchedBytes) AS part"))
    }

    @Test("URLs: the forms libpq takes, the password kept out of the description; others refused")
    func urls() throws {
        let url = try #require(PostgresStoreURL("postgresql://app:s%40cret@db.internal:6432/tabs?sslmode=require"))
        #expect(url.host == "db.internal" && url.port == 6432 && url.username == "app" && url.password == "s@cret")
        #expect(url.database == "tabs" && url.sslMode == "require")
        #expect(!url.description.contains("cret"))
        let defaults = try #require(PostgresStoreURL("postgres://app@localhost"))
        #expect(defaults.port == 5432 && defaults.database == "app" && defaults.sslMode == "prefer")
        for invalid in ["mysql://a@b/c", "postgres://localhost/db", "postgres://a@/db", "postgres://a@b/c?sslmode=verify",
            "postgres://a@b/c?application_name=x", "./data"]
        {
            #expect(PostgresStoreURL(invalid) == nil, "\(invalid)")
        }
    }
}
#endif
