import Foundation
import Testing
import TabBarStore

/// The audit log, against every store.
extension StoreConformanceTests {
    /// `withStore`, with a recorder for the test's audit records.
    private func withAuditedStore(
        _ factory: StoreFactory, _ body: (any TabBarStore, AuditRecorder) throws -> Void
    ) throws {
        try withStore(factory) { _, store in try body(store, AuditRecorder()) }
    }

    @Test(
        "audited publish, rollback, import and delete: one entry each, in order, with every field",
        arguments: StoreFactory.all)
    func auditEntriesInOrder(factory: StoreFactory) throws {
        try withAuditedStore(factory) { store, recorder in
            let started = Date()
            let v1 = try store.publish(
                client: "ios", document: Self.document(1), note: "first", rollbackOf: nil, expectedVersion: 0,
                audit: recorder.record(.publish, key: "alice", requestID: "req-1"))
            let v2 = try store.publish(
                client: "ios", document: Self.document(2), note: nil, rollbackOf: nil, expectedVersion: nil,
                audit: recorder.record(.publish, key: "bob"))
            let v3 = try store.publish(
                client: "ios", document: Self.document(1), note: "back", rollbackOf: 1, expectedVersion: 2,
                audit: recorder.record(.rollback, key: "alice", requestID: "req-3"))
            let v4 = try store.publish(
                client: "ios", document: Self.document(4), note: "applied", rollbackOf: nil, expectedVersion: nil,
                audit: recorder.record(.import, key: "ci"))
            #expect(try store.deleteClient("ios", audit: recorder.record(.delete, key: "root", requestID: "req-5")))
            let finished = Date()
            #expect(recorder.previous == [nil, v1, v2, v3, v4], "summarize gets the version live before the change")

            let entries = try store.auditEntries(AuditQuery())
            try #require(entries.count == 5)
            #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
            #expect(entries.map(\.action) == [.publish, .publish, .rollback, .import, .delete])
            #expect(entries.map(\.key) == ["alice", "bob", "alice", "ci", "root"])
            #expect(entries.map(\.client) == Array(repeating: "ios", count: 5))
            #expect(entries.map(\.version) == [1, 2, 3, 4, 4])
            #expect(entries.map(\.previousVersion) == [nil, 1, 2, 3, 4])
            #expect(entries.map(\.rollbackOf) == [nil, nil, 1, nil, nil])
            #expect(entries.map(\.note) == ["first", nil, "back", "applied", nil])
            #expect(entries.map(\.requestID) == ["req-1", nil, "req-3", nil, "req-5"])
            #expect(entries.map(\.summary) == [nil, 1, 2, 3, 4].map(AuditRecorder.summary(after:)))
            #expect(entries.prefix(4).map(\.time) == [v1, v2, v3, v4].map(\.publishedAt))
            let deleted = entries[4].time
            #expect(deleted >= started.addingTimeInterval(-0.001) && deleted <= finished.addingTimeInterval(0.001))
            #expect(deleted.timeIntervalSince1970 * 1000 == (deleted.timeIntervalSince1970 * 1000).rounded())
        }
    }

    @Test("refused changes, changes without an audit record and deletes of no live version write no entry",
        arguments: StoreFactory.all)
    func auditOnlyWhatHappened(factory: StoreFactory) throws {
        try withAuditedStore(factory) { store, recorder in
            let seed = try store.publish(client: "ios", document: Self.document(1), note: nil, rollbackOf: nil)
            #expect(throws: StoreError.revisionMismatch) {
                try store.publish(
                    client: "ios", document: Self.document(2), note: nil, rollbackOf: nil, expectedVersion: 5,
                    audit: recorder.record(.publish))
            }
            #expect(throws: StoreError.invalidDocument) {
                try store.publish(
                    client: "ios", document: Data("{not json".utf8), note: nil, rollbackOf: nil, expectedVersion: nil,
                    audit: recorder.record(.publish))
            }
            #expect(throws: StoreError.invalidClientID) {
                try store.publish(
                    client: "Not Valid", document: Self.document(2), note: nil, rollbackOf: nil, expectedVersion: nil,
                    audit: recorder.record(.publish))
            }
            #expect(try store.deleteClient("never-published", audit: recorder.record(.delete)) == false)
            let value = StoredCustomization(order: ["home"], hidden: [])
            _ = try store.saveCustomization(client: "web", user: "u", value, expectedRevision: nil)
            #expect(try store.deleteClient("web", audit: recorder.record(.delete)) == false)
            _ = try store.publish(client: "ipad", document: Self.document(3), note: nil, rollbackOf: nil)
            #expect(try store.deleteClient("ipad"))
            #expect(try store.deleteClient("ipad", audit: recorder.record(.delete)) == false)
            #expect(recorder.previous.isEmpty, "summarize is called only for a change that is made")
            #expect(try store.auditEntries(AuditQuery()) == [])

            let audited = try store.publish(
                client: "ios", document: Self.document(2), note: nil, rollbackOf: nil, expectedVersion: 1,
                audit: recorder.record(.publish))
            #expect(recorder.previous == [seed])
            let entries = try store.auditEntries(AuditQuery())
            #expect(entries.map(\.version) == [audited.version])
            #expect(entries.map(\.previousVersion) == [seed.version])
        }
    }

    @Test("audit queries select by client, time, sequence and count", arguments: StoreFactory.all)
    func auditQueries(factory: StoreFactory) throws {
        try withAuditedStore(factory) { store, recorder in
            for round in 0..<6 {
                if round == 3 { Thread.sleep(forTimeInterval: 0.005) }
                for client in ["ios", "android"] {
                    _ = try store.publish(
                        client: client, document: Self.document(round), note: nil, rollbackOf: nil,
                        expectedVersion: nil, audit: recorder.record(.publish))
                }
            }
            #expect(try store.deleteClient("android", audit: recorder.record(.delete)))
            let all = try store.auditEntries(AuditQuery(limit: 1000))
            try #require(all.count == 13)
            #expect(try store.auditEntries(AuditQuery()) == all)
            #expect(try store.auditEntries(AuditQuery(limit: 5)) == Array(all.prefix(5)))
            #expect(try store.auditEntries(AuditQuery(limit: 0)) == [])
            #expect(try store.auditEntries(AuditQuery(client: "ios")) == all.filter { $0.client == "ios" })
            #expect(try store.auditEntries(AuditQuery(client: "nobody")) == [])
            let since = all[6].time
            let recent = try store.auditEntries(AuditQuery(since: since))
            #expect(recent == all.filter { $0.time >= since })
            #expect(recent.count >= 7 && recent.count < 13)
            #expect(try store.auditEntries(AuditQuery(since: Date().addingTimeInterval(60))) == [])
            let cursor = all[4].sequence
            #expect(try store.auditEntries(AuditQuery(after: cursor)) == Array(all.dropFirst(5)))
            let page = try store.auditEntries(AuditQuery(client: "android", after: cursor, limit: 2))
            #expect(page == Array(all.dropFirst(5).filter { $0.client == "android" }.prefix(2)))
            #expect(try store.auditEntries(AuditQuery(after: all[12].sequence)) == [])
            #expect(all.last?.action == .delete && all.last?.client == "android")
        }
    }

    @Test("audit entries survive close and reopen; numbering continues", arguments: StoreFactory.all)
    func auditAfterReopen(factory: StoreFactory) throws {
        let harness = try factory.make()
        defer { harness.remove() }
        let recorder = AuditRecorder()
        let store = try harness.open()
        _ = try store.publish(
            client: "ios", document: Self.document(1), note: "n", rollbackOf: nil, expectedVersion: nil,
            audit: recorder.record(.publish, requestID: "r"))
        _ = try store.publish(
            client: "gone", document: Self.document(2), note: nil, rollbackOf: nil, expectedVersion: nil,
            audit: recorder.record(.import))
        #expect(try store.deleteClient("gone", audit: recorder.record(.delete)))
        let before = try store.auditEntries(AuditQuery())
        store.close()

        let reopened = try harness.open()
        defer { reopened.close() }
        #expect(try reopened.auditEntries(AuditQuery()) == before)
        let v2 = try reopened.publish(
            client: "ios", document: Self.document(3), note: nil, rollbackOf: nil, expectedVersion: 1,
            audit: recorder.record(.publish))
        let after = try reopened.auditEntries(AuditQuery())
        #expect(after.dropLast() == before[...])
        #expect(after.last?.version == v2.version && after.last?.previousVersion == 1)
        #expect(after.last!.sequence > before.last!.sequence)
    }

    @Test(
        "audited publishes from many threads: one entry per publish made, none for refused ones",
        arguments: StoreFactory.all)
    func concurrentAuditedPublishes(factory: StoreFactory) throws {
        try withAuditedStore(factory) { store, recorder in
            let outcomes = Concurrently.run(8) { thread in
                (0..<6).map { round in
                    let client = thread < 4 ? "shared" : "own-\(thread)"
                    // Every other publish of the shared client expects the live version it just read, and can lose.
                    let expected = thread % 2 == 1 ? store.liveVersion(client: client)?.version ?? 0 : nil
                    return Result {
                        try store.publish(
                            client: client, document: Self.document(100 * thread + round), note: nil, rollbackOf: nil,
                            expectedVersion: expected, audit: recorder.record(.publish, key: "t\(thread)"))
                    }
                }
            }
            let published = outcomes.flatMap { $0.compactMap { try? $0.get() } }
            let refused = outcomes.flatMap { $0 }.count - published.count
            #expect(outcomes.flatMap { $0 }.allSatisfy { outcome in
                if case .failure(let error) = outcome { return error as? StoreError == .revisionMismatch }
                return true
            })
            let entries = try store.auditEntries(AuditQuery(limit: 1000))
            #expect(entries.count == published.count, "\(refused) publishes were refused")
            #expect(recorder.previous.count == published.count)
            #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
            let made = Set(published.map { "\($0.client)/\($0.version)" })
            #expect(Set(entries.map { "\($0.client)/\($0.version)" }) == made)
            for client in Set(entries.map(\.client)) {
                let mine = entries.filter { $0.client == client }
                #expect(mine.map(\.version) == Array(1...mine.count), "\(client): in the order they committed")
                #expect(mine.map(\.previousVersion) == [nil] + (1..<mine.count).map { $0 }, "\(client)")
                #expect(mine.map(\.summary) == mine.map { AuditRecorder.summary(after: $0.previousVersion) })
            }
        }
    }
}
