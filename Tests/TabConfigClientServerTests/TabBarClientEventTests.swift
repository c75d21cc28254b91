import Foundation
import Testing
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import TabConfigClient

@Suite("TabBarClient: the event stream, against the real service")
struct TabBarClientEventTests {
    @Test("A publish reaches an active client through the event stream, without the app asking")
    func publishSeen() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let client = server.client()
        await client.start()
        await client.setActive(true)
        #expect(await client.delivery { $0.source == .fresh && $0.tabBar.version == 1 } != nil)
        #expect(await client.status { $0.eventStream == .connected } != nil)
        try await server.publish("app", ClientFixtures.config(["shop"] + ClientFixtures.ids))
        let updated = try #require(await client.delivery { $0.tabBar.version == 2 })
        #expect(updated.source == .fresh)
        #expect(updated.tabBar.tabs.first?.id == "shop")
        let answered = ["route": "/v1/clients/{client}/tabs", "status": "200"]
        #expect(try await server.settledCount(answered, expected: 2) == 2)
        await client.setActive(false)
        #expect(client.status.eventStream == .stopped)
        await client.shutdown()
    }

    @Test("A build manifest registered for the client's build reaches it through the event stream: tabs it lacks go")
    func buildManifestSeen() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let client = server.client()
        await client.start()
        await client.setActive(true)
        #expect(await client.delivery { $0.source == .fresh && $0.tabBar.tabs.count == 6 } != nil)
        #expect(await client.status { $0.eventStream == .connected } != nil)
        func register(_ ids: [String]) async throws -> Int {
            let manifest = ["viewControllers": ids.map { "\($0.capitalized)ViewController" }]
            return try await server.request(
                "PUT", "/v1/clients/app/builds/ios/5.2.0",
                headers: ["Authorization": "Bearer \(ClientTestServer.adminToken)", "Content-Type": "application/json"],
                body: try JSONSerialization.data(withJSONObject: manifest)
            ).status
        }
        #expect(try await register(ClientFixtures.ids.filter { $0 != "settings" }) == 201)
        let without = try #require(await client.delivery { !$0.tabBar.tabs.contains { $0.id == "settings" } })
        #expect(without.tabBar.version == 1, "the same version, without the tab the build lacks")
        #expect(try await register(ClientFixtures.ids) == 200)
        #expect(await client.delivery { $0.tabBar.tabs.contains { $0.id == "settings" } } != nil)
        await client.shutdown()
    }

    @Test("503 with Retry-After on the event stream: no reconnection before it elapsed, then the stream connects")
    func retryAfterHonoured() async throws {
        let server = try await ClientTestServer.published {
            $0.maxEventSubscribers = 1
            $0.eventHeartbeat = 1
        }
        defer { server.close() }
        let events = try #require(URL(string: "\(server.baseURL.absoluteString)/v1/clients/app/tabs/events"))
        let session = EventStreamSession(idleTimeout: .seconds(30))
        defer { session.invalidate() }
        let holder = Task {
            for try await _ in session.open(URLRequest(url: events)) {}
        }
        #expect(try await waitUntil { try await server.eventSubscribers() == 1 })

        let client = server.client()
        _ = try await client.refresh()
        let started = ContinuousClock.now
        await client.setActive(true)
        let refusals = ["route": "/v1/clients/{client}/tabs/events", "status": "503"]
        #expect(try await waitUntil { try await server.requestCount(refusals) == 1 })
        #expect(await client.status { $0.retryAfter != nil } != nil)
        holder.cancel()
        #expect(await client.status(within: 30) { $0.eventStream == .connected } != nil)
        #expect(ContinuousClock.now - started >= .seconds(5))
        #expect(try await server.settledCount(refusals, expected: 1) == 1)
        await client.shutdown()
    }
}
