import Foundation
import TabBarModel
import Testing
import TabBarStore

/// Behaviour every `TabBarStore` implementation must show, run against each entry of `StoreFactory.all`.
@Suite("TabBarStore conformance")
struct StoreConformanceTests {
    static func document(_ n: Int) -> Data {
        Data(#"{"tabs":[{"id":"home","n":\#(n)}]}"#.utf8)
    }

    func withStore(_ factory: StoreFactory, _ body: (any StoreHarness, any TabBarStore) throws -> Void) throws {
        let harness = try factory.make()
        defer { harness.remove() }
        let store = try harness.open()
        defer { store.close() }
        try body(harness, store)
    }

    @Test("publish numbers versions 1, 2, 3 and the newest is live", arguments: StoreFactory.all)
    func publishNumbersVersions(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            #expect(store.liveVersion(client: "ios") == nil)
            #expect(store.versionNumbers(client: "ios") == [])
            let first = try store.publish(client: "ios", document: Self.document(1), note: "first", rollbackOf: nil)
            let second = try store.publish(client: "ios", document: Self.document(2), note: nil, rollbackOf: nil)
            let third = try store.publish(client: "ios", document: Self.document(1), note: "back", rollbackOf: 1)
            #expect([first.version, second.version, third.version] as [Int] == [1, 2, 3])
            #expect(first.client == "ios" && first.note == "first" && first.rollbackOf == nil)
            #expect(third.rollbackOf == 1 && third.note == "back")
            #expect(store.liveVersion(client: "ios") == third)
            #expect(store.versionNumbers(client: "ios") == [1, 2, 3])
            #expect(store.version(client: "ios", number: 1) == first)
            #expect(store.version(client: "ios", number: 2)?.document == Self.document(2))
            #expect(store.version(client: "ios", number: 4) == nil)
            #expect(store.version(client: "android", number: 1) == nil)
            #expect(first.publishedAt <= second.publishedAt && second.publishedAt <= third.publishedAt)

            _ = try store.publish(client: "android", document: Self.document(9), note: nil, rollbackOf: nil)
            _ = try store.publish(client: "ipad", document: Self.document(9), note: nil, rollbackOf: nil)
            #expect(store.clientIDs() == ["android", "ios", "ipad"])
            #expect(store.liveVersion(client: "android")?.version == 1)
        }
    }

    @Test(
        "deleteClient removes its versions and customizations only; numbering continues", arguments: StoreFactory.all
    )
    func deleteClientRemovesEverything(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            _ = try store.publish(client: "ios", document: Self.document(1), note: nil, rollbackOf: nil)
            _ = try store.publish(client: "ios", document: Self.document(2), note: nil, rollbackOf: nil)
            _ = try store.publish(client: "ipad", document: Self.document(3), note: nil, rollbackOf: nil)
            let value = StoredCustomization(order: ["home", "feed"], hidden: ["feed"])
            _ = try store.saveCustomization(client: "ios", user: "alice", value, expectedRevision: nil)
            _ = try store.saveCustomization(client: "ios", user: "bob", value, expectedRevision: nil)
            _ = try store.saveCustomization(client: "ipad", user: "alice", value, expectedRevision: nil)
            #expect(store.customizationCount == 3)

            #expect(try store.deleteClient("ios"))
            #expect(store.liveVersion(client: "ios") == nil)
            #expect(store.versionNumbers(client: "ios") == [])
            #expect(store.versionHistory(client: "ios") == [])
            #expect(store.version(client: "ios", number: 1) == nil)
            #expect(store.customization(client: "ios", user: "alice") == nil)
            #expect(store.customization(client: "ios", user: "bob") == nil)
            #expect(store.clientIDs() == ["ipad"])
            #expect(store.customizationCount == 1)
            #expect(store.customization(client: "ipad", user: "alice") == CustomizationEntry(revision: 1, value: value))
            #expect(store.liveVersion(client: "ipad")?.version == 1)

            #expect(try store.deleteClient("ios") == false)
            #expect(try store.deleteClient("never-published") == false)

            let again = try store.publish(client: "ios", document: Self.document(7), note: nil, rollbackOf: nil)
            #expect(again.version == 3, "version numbers continue after the deleted client's last one")
            #expect(store.versionNumbers(client: "ios") == [3])
            #expect(store.version(client: "ios", number: 1) == nil)
            let saved = try store.saveCustomization(client: "ios", user: "alice", value, expectedRevision: 0)
            #expect(saved.revision == 2, "alice's revisions continue after her last one")
            let carol = try store.saveCustomization(client: "ios", user: "carol", value, expectedRevision: 0)
            #expect(carol.revision == 1, "a user who never saved starts at 1")
            #expect(store.customization(client: "ios", user: "bob") == nil)
        }
    }

    @Test("deleteClient of a client with only customizations returns false and keeps their numbering",
        arguments: StoreFactory.all)
    func deleteClientWithoutVersions(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            let value = StoredCustomization(order: ["home"], hidden: [])
            _ = try store.saveCustomization(client: "web", user: "alice", value, expectedRevision: nil)
            _ = try store.saveCustomization(client: "web", user: "alice", value, expectedRevision: nil)
            #expect(try store.deleteClient("web") == false)
            #expect(store.customization(client: "web", user: "alice") == nil)
            #expect(store.customizationCount == 0)
            #expect(try store.saveCustomization(client: "web", user: "alice", value, expectedRevision: 0).revision == 3)
            let published = try store.publish(client: "web", document: Self.document(1), note: nil, rollbackOf: nil)
            #expect(published.version == 1)
        }
    }

    @Test("publish with expectedVersion is compare-and-set against the live version", arguments: StoreFactory.all)
    func publishExpectedVersion(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            #expect(throws: StoreError.revisionMismatch) {
                try store.publish(
                    client: "ios", document: Self.document(1), note: nil, rollbackOf: nil, expectedVersion: 1
                )
            }
            #expect(store.liveVersion(client: "ios") == nil)
            #expect(store.clientIDs() == [])
            let first = try store.publish(
                client: "ios", document: Self.document(1), note: "v1", rollbackOf: nil, expectedVersion: 0
            )
            #expect(first.version == 1)
            for stale in [0, 2, -1] {
                #expect(throws: StoreError.revisionMismatch) {
                    try store.publish(
                        client: "ios", document: Self.document(9), note: nil, rollbackOf: nil, expectedVersion: stale
                    )
                }
            }
            #expect(store.liveVersion(client: "ios") == first)
            #expect(store.versionNumbers(client: "ios") == [1])
            let second = try store.publish(
                client: "ios", document: Self.document(2), note: nil, rollbackOf: nil, expectedVersion: 1
            )
            #expect(second.version == 2)
            let unconditional = try store.publish(
                client: "ios", document: Self.document(3), note: nil, rollbackOf: nil, expectedVersion: nil
            )
            #expect(unconditional.version == 3)

            #expect(try store.deleteClient("ios"))
            #expect(throws: StoreError.revisionMismatch) {
                try store.publish(
                    client: "ios", document: Self.document(4), note: nil, rollbackOf: nil, expectedVersion: 3
                )
            }
            let recreated = try store.publish(
                client: "ios", document: Self.document(4), note: nil, rollbackOf: nil, expectedVersion: 0
            )
            #expect(recreated.version == 4, "a deleted client has no live version (0), and numbering continues")
        }
    }

    @Test("concurrent publishes expecting the same live version: exactly one wins", arguments: StoreFactory.all)
    func concurrentConditionalPublishes(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            _ = try store.publish(client: "ios", document: Self.document(0), note: nil, rollbackOf: nil)
            for round in 0..<5 {
                let expected = round + 1
                let outcomes = Concurrently.run(8) { thread in
                    Result {
                        try store.publish(
                            client: "ios", document: Self.document(100 * round + thread), note: "t\(thread)",
                            rollbackOf: nil, expectedVersion: expected
                        )
                    }
                }
                let winners = outcomes.compactMap { try? $0.get() }
                let mismatches = outcomes.filter {
                    if case .failure(let error as StoreError) = $0 { return error == .revisionMismatch }
                    return false
                }
                #expect(winners.map(\.version) == [expected + 1], "round \(round)")
                #expect(mismatches.count == 7, "round \(round)")
                #expect(store.liveVersion(client: "ios") == winners.first)
            }
            #expect(store.versionNumbers(client: "ios") == Array(1...6))
        }
    }

    @Test("versionHistory lists retained versions newest first, without documents", arguments: StoreFactory.all)
    func versionHistory(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            #expect(store.versionHistory(client: "ios") == [])
            let v1 = try store.publish(client: "ios", document: Self.document(1), note: "first", rollbackOf: nil)
            let v2 = try store.publish(client: "ios", document: Self.document(22), note: nil, rollbackOf: nil)
            let v3 = try store.publish(client: "ios", document: Self.document(1), note: "back", rollbackOf: 1)
            _ = try store.publish(client: "android", document: Self.document(5), note: nil, rollbackOf: nil)
            let history = store.versionHistory(client: "ios")
            #expect(history.map(\.version) == [3, 2, 1])
            #expect(history == [v3, v2, v1].map(ConfigVersionInfo.init))
            #expect(history[1].size == Self.document(22).count)
            #expect(history[0].rollbackOf == 1 && history[0].note == "back")
            #expect(store.versionHistory(client: "android").count == 1)
            #expect(store.versionHistory(client: "nobody") == [])
        }
    }

    @Test("save, read and delete customizations with revisions", arguments: StoreFactory.all)
    func customizationRevisions(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            #expect(store.customization(client: "ios", user: "alice") == nil)
            let first = StoredCustomization(order: ["a", "b"], hidden: [])
            let second = StoredCustomization(order: ["b", "a"], hidden: ["a"])
            #expect(try store.saveCustomization(client: "ios", user: "alice", first, expectedRevision: nil)
                == CustomizationEntry(revision: 1, value: first))
            #expect(try store.saveCustomization(client: "ios", user: "alice", second, expectedRevision: nil)
                == CustomizationEntry(revision: 2, value: second))
            #expect(store.customization(client: "ios", user: "alice") == CustomizationEntry(revision: 2, value: second))
            #expect(store.customization(client: "ipad", user: "alice") == nil)
            #expect(store.customization(client: "ios", user: "Alice") == nil)
            #expect(store.customizationCount == 1)

            #expect(try store.deleteCustomization(client: "ios", user: "alice"))
            #expect(store.customization(client: "ios", user: "alice") == nil)
            #expect(store.customizationCount == 0)
            #expect(try store.deleteCustomization(client: "ios", user: "alice") == false)
            #expect(try store.deleteCustomization(client: "ios", user: "nobody") == false)

            let after = try store.saveCustomization(client: "ios", user: "alice", first, expectedRevision: nil)
            #expect(after.revision == 4, "the reset took revision 3; numbering continues after it")
            #expect(store.customization(client: "ios", user: "alice") == after)
        }
    }

    @Test("expectedRevision must match the current revision", arguments: StoreFactory.all)
    func expectedRevision(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            let value = StoredCustomization(order: ["a"], hidden: [])
            let other = StoredCustomization(order: ["b"], hidden: [])
            #expect(throws: StoreError.revisionMismatch) {
                try store.saveCustomization(client: "ios", user: "u", value, expectedRevision: 1)
            }
            #expect(store.customization(client: "ios", user: "u") == nil)
            #expect(try store.saveCustomization(client: "ios", user: "u", value, expectedRevision: 0).revision == 1)
            #expect(throws: StoreError.revisionMismatch) {
                try store.saveCustomization(client: "ios", user: "u", other, expectedRevision: 0)
            }
            #expect(throws: StoreError.revisionMismatch) {
                try store.saveCustomization(client: "ios", user: "u", other, expectedRevision: 5)
            }
            #expect(store.customization(client: "ios", user: "u") == CustomizationEntry(revision: 1, value: value))
            #expect(try store.saveCustomization(client: "ios", user: "u", other, expectedRevision: 1).revision == 2)

            #expect(try store.deleteCustomization(client: "ios", user: "u"))
            #expect(throws: StoreError.revisionMismatch) {
                try store.saveCustomization(client: "ios", user: "u", value, expectedRevision: 2)
            }
            let restored = try store.saveCustomization(client: "ios", user: "u", value, expectedRevision: 0)
            #expect(restored.revision == 4)
        }
    }

    @Test("open tabs are kept with the customization, escaped or not, and after a reopen", arguments: StoreFactory.all)
    func openTabs(factory: StoreFactory) throws {
        let harness = try factory.make()
        defer { harness.remove() }
        let store = try harness.open()
        let plain = StoredCustomization(
            order: ["document:q3", "home"], hidden: ["web:news"],
            dynamicTabs: [
                DynamicTab(template: "document", name: "q3", parameters: ["docId": "42", "mode": "read"], title: "Q3"),
                DynamicTab(template: "web", name: "news"),
            ])
        let escaped = StoredCustomization(
            order: [], hidden: [],
            dynamicTabs: [
                DynamicTab(
                    template: "web", name: "a~b", parameters: ["url": "https://x.example/?q=\"a\"\\"],
                    title: "Ünïcode \"t\"\n")
            ])
        let first = try store.saveCustomization(client: "ios", user: "alice", plain, expectedRevision: 0)
        let second = try store.saveCustomization(client: "ios", user: "bob", escaped, expectedRevision: nil)
        #expect(first.value == plain && second.value == escaped)
        #expect(store.customization(client: "ios", user: "alice") == first)
        let closed = StoredCustomization(order: ["home"], hidden: [], dynamicTabs: [plain.dynamicTabs[1]])
        let third = try store.saveCustomization(client: "ios", user: "alice", closed, expectedRevision: 1)
        store.close()

        let reopened = try harness.open()
        defer { reopened.close() }
        #expect(reopened.customization(client: "ios", user: "alice") == third)
        #expect(reopened.customization(client: "ios", user: "bob") == second)
    }

    @Test("a reopened store has everything", arguments: StoreFactory.all)
    func reopenKeepsEverything(factory: StoreFactory) throws {
        let harness = try factory.make()
        defer { harness.remove() }
        let store = try harness.open()
        let v1 = try store.publish(client: "ios", document: Self.document(1), note: "n1", rollbackOf: nil)
        let v2 = try store.publish(client: "ios", document: Self.document(2), note: nil, rollbackOf: 1)
        let a1 = try store.publish(client: "android", document: Self.document(3), note: nil, rollbackOf: nil)
        _ = try store.publish(client: "gone", document: Self.document(4), note: nil, rollbackOf: nil)
        let value = StoredCustomization(order: ["x", "y"], hidden: ["y"])
        _ = try store.saveCustomization(client: "ios", user: "alice", value, expectedRevision: nil)
        let alice = try store.saveCustomization(client: "ios", user: "alice", value, expectedRevision: nil)
        let bob = try store.saveCustomization(client: "android", user: "bob@example.com", value, expectedRevision: nil)
        _ = try store.saveCustomization(client: "ios", user: "carol", value, expectedRevision: nil)
        _ = try store.deleteCustomization(client: "ios", user: "carol")
        _ = try store.saveCustomization(client: "gone", user: "dave", value, expectedRevision: nil)
        _ = try store.deleteClient("gone")
        store.close()

        let reopened = try harness.open()
        defer { reopened.close() }
        #expect(reopened.clientIDs() == ["android", "ios"])
        #expect(reopened.versionHistory(client: "ios").map(\.version) == [2, 1])
        #expect(reopened.versionNumbers(client: "ios") == [1, 2])
        #expect(reopened.version(client: "ios", number: 1) == v1)
        #expect(reopened.liveVersion(client: "ios") == v2)
        #expect(reopened.liveVersion(client: "android") == a1)
        #expect(reopened.liveVersion(client: "gone") == nil)
        #expect(reopened.customization(client: "ios", user: "alice") == alice)
        #expect(reopened.customization(client: "android", user: "bob@example.com") == bob)
        #expect(reopened.customization(client: "ios", user: "carol") == nil)
        #expect(reopened.customization(client: "gone", user: "dave") == nil)
        #expect(reopened.customizationCount == 2)
        #expect(try reopened.saveCustomization(client: "ios", user: "carol", value, expectedRevision: 0).revision == 3)
        #expect(try reopened.saveCustomization(client: "ios", user: "alice", value, expectedRevision: 2).revision == 3)
        let republished = try reopened.publish(client: "ios", document: Self.document(5), note: nil, rollbackOf: nil)
        #expect(republished.version == 3)
        #expect(reopened.versionHistory(client: "ios").map(\.version) == [3, 2, 1])
        let revived = try reopened.publish(
            client: "gone", document: Self.document(6), note: nil, rollbackOf: nil, expectedVersion: 0
        )
        #expect(revived.version == 2, "the deleted client's numbering survived the reopen")
        #expect(try reopened.saveCustomization(client: "gone", user: "dave", value, expectedRevision: 0).revision == 2)
    }

    @Test("a closed store refuses writes and still serves reads", arguments: StoreFactory.all)
    func closedStoreRefusesWrites(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            let value = StoredCustomization(order: ["a"], hidden: [])
            let saved = try store.saveCustomization(client: "ios", user: "u", value, expectedRevision: nil)
            let version = try store.publish(client: "ios", document: Self.document(1), note: nil, rollbackOf: nil)
            #expect(store.unavailableReason == nil)
            store.close()
            #expect(store.unavailableReason != nil)
            #expect(throws: StoreError.unavailable) {
                try store.saveCustomization(client: "ios", user: "u", value, expectedRevision: nil)
            }
            #expect(throws: StoreError.unavailable) { try store.deleteCustomization(client: "ios", user: "u") }
            #expect(throws: StoreError.unavailable) {
                try store.publish(client: "ios", document: Self.document(2), note: nil, rollbackOf: nil)
            }
            #expect(throws: StoreError.unavailable) {
                try store.publish(
                    client: "ios", document: Self.document(2), note: nil, rollbackOf: nil, expectedVersion: 1
                )
            }
            #expect(throws: StoreError.unavailable) { try store.deleteClient("ios") }
            #expect(store.customization(client: "ios", user: "u") == saved)
            #expect(store.liveVersion(client: "ios") == version)
        }
    }
}
