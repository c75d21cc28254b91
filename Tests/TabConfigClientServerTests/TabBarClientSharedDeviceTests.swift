import Foundation
import Synchronization
import Testing
import TestSupport

@testable import TabConfigClient

@Suite("TabBarClient: users of one device signed in one after the other with .me, against the real service")
struct TabBarClientSharedDeviceTests {
    /// Alice's stored order, then her edit made offline, pending.
    private let aliceOrder = TabOrderState(order: ["profile", "home", "search", "library", "favorites", "settings"])
    private let alicePending = TabOrderState(order: ["settings", "profile", "home", "search", "library", "favorites"])

    private static func server() async throws -> ClientTestServer {
        try await ClientTestServer.published { $0.userAuth.hs256Secret = ClientTestServer.hs256Secret }
    }

    /// A client of `.me` whose files are in the one directory every user of the device shares.
    private static func client(
        _ server: ClientTestServer, tokens: @escaping TabBarClient.TokenProvider
    ) -> TabBarClient {
        server.client(user: .me, name: "device", bundled: ClientFixtures.bundled, tokens: tokens)
    }

    /// `client.refresh()` once the service answers it: a revalidation begun while the service was stopped may still
    /// be in flight, and refresh joins it (tried for up to 10 s).
    private static func refreshed(_ client: TabBarClient) async throws -> TabBarDelivery {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                return try await client.refresh()
            } catch TabBarClientError.network where Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Alice stores an order, then makes an edit with the service stopped: her cached tab bar shows both.
    private func aliceEdits(_ client: TabBarClient, _ server: ClientTestServer) async throws {
        let base = TabOrderState(try await client.refresh().tabBar)
        #expect(try await client.save(TabOrderEdit(base: base, edited: aliceOrder)) == .stored(revision: 1))
        server.stop()
        let outcome = try await client.save(TabOrderEdit(base: aliceOrder, edited: alicePending))
        guard case .pending = outcome else {
            Issue.record("a save with the service stopped stays pending, got \(outcome)")
            return
        }
        #expect(client.current?.tabBar.tabs.map(\.id) == alicePending.order)
    }

    @Test("Bob's launch after Alice's shows neither her bar nor sends her save; hers lands at her next launch")
    func launchAfterLaunch() async throws {
        let server = try await Self.server()
        defer { server.close() }
        let alice = try await ClientFixtures.token(for: "alice")
        let bob = try await ClientFixtures.token(for: "bob")
        let aliceClient = Self.client(server) { alice }
        try await aliceEdits(aliceClient, server)
        await aliceClient.shutdown()

        let bobClient = Self.client(server) { bob }
        await bobClient.start()
        #expect(bobClient.current?.source == .bundled)
        #expect(bobClient.current?.tabBar.tabs.map(\.id) == ["home", "search"])
        #expect(await bobClient.pendingEdit == nil)
        try server.restart()
        let fresh = try await Self.refreshed(bobClient)
        #expect(fresh.tabBar.tabs.map(\.id) == ClientFixtures.ids)
        #expect(!fresh.hasPendingSave)
        #expect(try await bobClient.sendPendingSave() == nil)
        await bobClient.shutdown()
        #expect(try await server.storedOrder("app", "bob", token: bob).revision == 0)

        let aliceAgain = Self.client(server) { alice }
        #expect(await aliceAgain.pendingEdit?.edited == alicePending)
        await aliceAgain.start()
        #expect(aliceAgain.current?.source == .cached)
        #expect(await aliceAgain.delivery { $0.source == .fresh && !$0.hasPendingSave } != nil)
        await aliceAgain.shutdown()
        let stored = try await server.storedOrder("app", "alice", token: alice)
        #expect(stored.order == alicePending.order)
        #expect(stored.revision == 2)
    }

    @Test("One client whose token turns from Alice's to Bob's and back: Bob never sees or sends Alice's, she gets hers")
    func tokenChangesUser() async throws {
        let server = try await Self.server()
        defer { server.close() }
        let alice = try await ClientFixtures.token(for: "alice")
        let bob = try await ClientFixtures.token(for: "bob")
        let current = Mutex(alice)
        let client = Self.client(server) { current.withLock { $0 } }
        try await aliceEdits(client, server)

        current.withLock { $0 = bob }
        await client.credentialsChanged()
        let bobsBundled = try #require(await client.delivery { $0.source == .bundled })
        #expect(bobsBundled.tabBar.tabs.map(\.id) == ["home", "search"])
        #expect(!bobsBundled.hasPendingSave)
        #expect(await client.pendingEdit == nil)
        try server.restart()
        let bobsFresh = try await Self.refreshed(client)
        #expect(bobsFresh.tabBar.tabs.map(\.id) == ClientFixtures.ids)
        #expect(try await client.sendPendingSave() == nil)
        #expect(try await server.storedOrder("app", "bob", token: bob).revision == 0)

        current.withLock { $0 = alice }
        await client.credentialsChanged()
        let alicesFresh = try #require(
            await client.delivery {
                $0.source == .fresh && !$0.hasPendingSave && $0.tabBar.customization?.revision == 2
            })
        #expect(alicesFresh.tabBar.tabs.map(\.id) == alicePending.order)
        #expect(try await server.storedOrder("app", "bob", token: bob).revision == 0)
        await client.shutdown()
    }

    @Test("What earlier releases kept for .me (files named after no user) is shown to no one, sent for none, removed")
    func earlierReleaseFiles() async throws {
        let server = try await Self.server()
        defer { server.close() }
        let bob = try await ClientFixtures.token(for: "bob")
        let client = Self.client(server) { bob }
        let directory = client.configuration.storageDirectory
        let earlierAnswer = directory.appendingPathComponent("app.@me.tab-bar.json")
        let earlierPending = directory.appendingPathComponent("app.@me.pending-save.json")
        var someonesBar = ClientFixtures.bundled
        someonesBar.tabs.reverse()
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let request = "GET \(client.tabsURL.absoluteString) Accept-Language: \(client.acceptLanguage ?? "")"
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let someonesAnswer = CachedAnswer(
            request: request, etag: "\"1\"", body: try JSONEncoder().encode(someonesBar), receivedAt: Date())
        try encoder.encode(someonesAnswer).write(to: earlierAnswer)
        let someonesEdit = TabOrderEdit(
            base: TabOrderState(order: ClientFixtures.ids), edited: TabOrderState(order: ClientFixtures.ids.reversed()))
        try encoder.encode(PendingSave(owner: "app|me", edit: someonesEdit, baseRevision: 0)).write(to: earlierPending)
        server.stop()

        await client.start()
        #expect(client.current?.source == .bundled)
        #expect(client.current?.tabBar.tabs.map(\.id) == ["home", "search"])
        #expect(await client.pendingEdit == nil)
        #expect(!FileManager.default.fileExists(atPath: earlierAnswer.path))
        #expect(!FileManager.default.fileExists(atPath: earlierPending.path))
        try server.restart()
        #expect(try await Self.refreshed(client).hasPendingSave == false)
        await client.shutdown()
        #expect(try await server.storedOrder("app", "bob", token: bob).revision == 0)
    }
}
