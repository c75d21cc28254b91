import Foundation
import Testing
import TabBarStore

/// `seed`: the sample's publish, once per store, against every store.
extension StoreConformanceTests {
    @Test("seed publishes version 1 with its audit entry into an empty store, and nothing a second time",
        arguments: StoreFactory.all)
    func seedIntoEmptyStore(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            let recorder = AuditRecorder()
            let seeded = try store.seed(
                client: "ios", document: Self.document(1), note: "embedded sample",
                audit: recorder.record(.publish, key: "tabconfig (sample)"))
            #expect(seeded?.version == 1)
            #expect(store.liveVersion(client: "ios") == seeded)
            let again = try store.seed(
                client: "ios", document: Self.document(2), note: "embedded sample",
                audit: recorder.record(.publish, key: "tabconfig (sample)"))
            #expect(again == nil)
            #expect(store.versionNumbers(client: "ios") == [1])
            let entries = try store.auditEntries(AuditQuery())
            #expect(entries.map(\.key) == ["tabconfig (sample)"])
            #expect(entries.map(\.version) == [1])
        }
    }

    @Test("seed writes nothing into a store that holds or held a client", arguments: StoreFactory.all)
    func seedRefusesAStoreWithHistory(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            _ = try store.publish(client: "android", document: Self.document(1), note: nil, rollbackOf: nil)
            #expect(try store.seed(client: "ios", document: Self.document(2), note: nil, audit: nil) == nil)
            #expect(try store.deleteClient("android", audit: nil))
            #expect(store.clientIDs() == [])
            #expect(try store.seed(client: "ios", document: Self.document(2), note: nil, audit: nil) == nil)
            #expect(store.clientIDs() == [])
        }
        try withStore(factory) { harness, store in
            _ = try store.publish(client: "ios", document: Self.document(1), note: nil, rollbackOf: nil)
            #expect(try store.deleteClient("ios", audit: nil))
            store.close()
            let reopened = try harness.open()
            defer { reopened.close() }
            #expect(try reopened.seed(client: "ios", document: Self.document(2), note: nil, audit: nil) == nil)
            #expect(reopened.liveVersion(client: "ios") == nil)
        }
    }

    @Test("seeds racing on one store, and on stores sharing one database: exactly one publishes",
        arguments: StoreFactory.all)
    func concurrentSeeds(factory: StoreFactory) throws {
        try withStore(factory) { harness, store in
            // Stores of their own where the storage can be shared (another process's view of one database).
            let shared = store.isShared
            let stores: [any TabBarStore] = try (0..<4).map { _ in shared ? try harness.open() : store }
            defer { if shared { stores.forEach { $0.close() } } }
            let outcomes = Concurrently.run(8) { thread in
                Result {
                    try stores[thread % stores.count].seed(
                        client: "ios-phone", document: Self.document(thread), note: "embedded sample", audit: nil)
                }
            }
            var published: [ConfigVersion] = []
            for outcome in outcomes {
                switch outcome {
                case .success(let version): if let version { published.append(version) }
                case .failure(let error): Issue.record("a seed failed: \(error)")
                }
            }
            #expect(published.map(\.version) == [1])
            // What another process opening the storage now reads (the file store allows one process at a time).
            let reader = shared ? try harness.open() : store
            defer { if shared { reader.close() } }
            #expect(reader.versionNumbers(client: "ios-phone") == [1])
            #expect(reader.liveVersion(client: "ios-phone")?.document == published.first?.document)
        }
    }
}
