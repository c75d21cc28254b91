import Foundation
import Testing
import TestSupport

@testable import TabConfigClient

@Suite("TabBarClient: saving the user's order, against the real service")
struct TabBarClientSaveTests {
    private let put = ["route": "/v1/clients/{client}/users/{user}/tab-order", "method": "PUT"]

    @Test("Two clients race a save on one user from the same revision: one meets 412, merges, and both moves survive")
    func racingSaves() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let clients = ["phone", "tablet"].map { server.client(user: .id("racer"), name: $0) }
        let barrier = Barrier(count: 2)
        for client in clients {
            let delivery = try await client.refresh()
            #expect(delivery.tabBar.customization?.revision == 0)
            await client.setBeforeTabOrderWrite { await barrier.arrive() }
        }
        let base = TabOrderState(order: ClientFixtures.ids)
        let settingsFirst = TabOrderEdit(
            base: base, edited: TabOrderState(order: ["settings", "home", "search", "library", "favorites", "profile"]))
        let homeAfterFavorites = TabOrderEdit(
            base: base, edited: TabOrderState(order: ["search", "library", "favorites", "home", "profile", "settings"]))
        async let first = clients[0].save(settingsFirst)
        async let second = clients[1].save(homeAfterFavorites)
        let outcomes = try await [first, second]
        #expect(Set(outcomes) == [.stored(revision: 1), .stored(revision: 2)])
        let merged = ["settings", "search", "library", "favorites", "home", "profile"]
        let stored = try await server.storedOrder("app", "racer")
        #expect(stored.order == merged)
        #expect(stored.revision == 2)
        #expect(try await server.settledCount(put.merging(["status": "412"]) { $1 }, expected: 1) == 1)
        #expect(try await server.settledCount(put.merging(["status": "200"]) { $1 }, expected: 2) == 2)
        for client in clients {
            #expect(await client.pendingEdit == nil)
            let latest = try await client.refresh()
            #expect(latest.tabBar.tabs.map(\.id) == merged)
            await client.shutdown()
        }
    }

    @Test("A save while the service is down stays pending (shown applied), composes with the next, and arrives")
    func offlineSave() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let client = server.client(user: .id("walker"))
        let fresh = try await client.refresh()
        server.stop()

        let base = TabOrderState(fresh.tabBar)
        let moved = TabOrderState(order: ["profile", "home", "search", "library", "favorites", "settings"])
        let outcome = try await client.save(TabOrderEdit(base: base, edited: moved))
        guard case .pending(let lastError?) = outcome, lastError.isRetryable else {
            Issue.record("a save while the service is down is pending, got \(outcome)")
            return
        }
        let shown = try #require(client.current)
        #expect(shown.hasPendingSave)
        #expect(shown.tabBar.tabs.map(\.id) == moved.order)
        #expect(shown.tabBar.tabs.map(\.placement) == Array(repeating: .bar, count: 4) + [.more, .more])
        let pendingFile = ClientStorage(server.configuration(user: .id("walker"))).pendingFile
        #expect(FileManager.default.fileExists(atPath: pendingFile.path))
        #expect(await client.status { $0.lastError?.isRetryable == true } != nil)

        let hidden = TabOrderState(order: ["profile", "home", "search", "favorites", "settings"], hidden: ["library"])
        try await client.save(TabOrderEdit(base: moved, edited: hidden))
        #expect(await client.pendingEdit == TabOrderEdit(base: base, edited: hidden))

        try server.restart()
        let stored = try #require(await client.delivery { !$0.hasPendingSave && $0.source == .fresh })
        #expect(!FileManager.default.fileExists(atPath: pendingFile.path))
        let order = try await server.storedOrder("app", "walker")
        #expect(order.order == hidden.order)
        #expect(order.revision == 1)
        #expect(stored.tabBar.customization?.revision == 1)
        await client.shutdown()
    }

    @Test("A save the service refuses as it is (422: hides a tab that is not hideable) is dropped with its problem")
    func refusedSave() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let client = server.client(user: .id("hider"))
        let fresh = try await client.refresh()
        let base = TabOrderState(fresh.tabBar)
        let edit = TabOrderEdit(
            base: base, edited: TabOrderState(order: base.order.filter { $0 != "profile" }, hidden: ["profile"]))
        let outcome = try await client.save(edit)
        guard case .refused(let problem) = outcome else {
            Issue.record("the save is refused, got \(outcome)")
            return
        }
        #expect(problem.status == 422 && problem.errors?.first?.pointer == "/hidden/0")
        #expect(await client.pendingEdit == nil)
        #expect(client.current?.hasPendingSave == false)
        #expect(client.current?.tabBar.tabs.map(\.id) == ClientFixtures.ids)
        #expect(try await server.storedOrder("app", "hider").revision == 0)
        await client.shutdown()
    }

    @Test("A save on a first launch offline, over the bundled default (no revision), lands at the next launch")
    func firstLaunchOfflineSave() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        server.stop()
        let configuration = server.configuration(user: .id("newcomer"), bundled: ClientFixtures.bundled)
        let first = TabBarClient(configuration: configuration)
        await first.start()
        let bundled = try #require(await first.delivery { $0.source == .bundled })
        #expect(bundled.tabBar.customization == nil)
        let edited = TabOrderState(order: ["search", "home"])
        try await first.save(TabOrderEdit(base: TabOrderState(bundled.tabBar), edited: edited))
        #expect(first.current?.hasPendingSave == true)
        #expect(first.current?.tabBar.tabs.map(\.id) == ["search", "home"])
        await first.shutdown()

        try server.restart()
        let next = TabBarClient(configuration: configuration)
        await next.start()
        #expect(await next.delivery { !$0.hasPendingSave && $0.source == .fresh } != nil)
        let stored = try await server.storedOrder("app", "newcomer")
        #expect(stored.order == ["search", "home"])
        #expect(stored.revision == 1)
        await next.shutdown()
    }

    @Test("Two users in one storage directory: one's offline save survives the other's save, and both land")
    func twoUsersOneDirectory() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let alice = server.configuration(user: .id("alice"), name: "shared")
        let bob = server.configuration(user: .id("bob"), name: "shared")
        #expect(alice.storageDirectory == bob.storageDirectory)

        let aliceClient = TabBarClient(configuration: alice)
        let aliceBase = TabOrderState(try await aliceClient.refresh().tabBar)
        server.stop()
        let aliceOrder = TabOrderState(order: ["profile", "home", "search", "library", "favorites", "settings"])
        try await aliceClient.save(TabOrderEdit(base: aliceBase, edited: aliceOrder))
        await aliceClient.shutdown()

        try server.restart()
        let bobClient = TabBarClient(configuration: bob)
        let bobBase = TabOrderState(try await bobClient.refresh().tabBar)
        let bobOrder = TabOrderState(order: ["settings", "home", "search", "library", "favorites", "profile"])
        try await bobClient.save(TabOrderEdit(base: bobBase, edited: bobOrder))
        _ = try await bobClient.sendPendingSave()
        #expect(await bobClient.delivery { !$0.hasPendingSave } != nil)
        await bobClient.shutdown()

        let aliceAgain = TabBarClient(configuration: alice)
        #expect(await aliceAgain.pendingEdit?.edited == aliceOrder, "Alice's pending save is still on disk")
        await aliceAgain.start()
        #expect(await aliceAgain.delivery { !$0.hasPendingSave && $0.source == .fresh } != nil)
        await aliceAgain.shutdown()
        #expect(try await server.storedOrder("app", "alice").order == aliceOrder.order)
        #expect(try await server.storedOrder("app", "bob").order == bobOrder.order)
    }
}
