import Foundation
import Testing
import TestSupport

@testable import TabConfigClient

@Suite("TabBarClient: fetching, keeping and revalidating the tab bar against the real service")
struct TabBarClientFetchTests {
    @Test("First launch online: the service's tab bar is delivered as fresh (URLSession decoding it compressed) and kept on disk")
    func firstLaunchOnline() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let client = server.client()
        await client.start()
        let delivery = try #require(await client.delivery { $0.source == .fresh })
        await client.shutdown()
        #expect(delivery.tabBar.tabs.map(\.id) == ClientFixtures.ids)
        #expect(delivery.tabBar.version == 1)
        // URLSession asked for a coding by itself and decoded it: the tag is the compressed form's.
        let etag = try #require(delivery.etag)
        #expect(etag.hasSuffix(";br\"") || etag.hasSuffix(";gzip\""), "\(etag)")
        #expect(ClientStorage(server.configuration()).loadAnswer() != nil)
    }

    @Test("Second launch with the service stopped: the kept answer is served at once, marked cached, never fresh")
    func secondLaunchOffline() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let configuration = server.configuration(bundled: ClientFixtures.bundled)
        let first = TabBarClient(configuration: configuration)
        await first.start()
        let fresh = try #require(await first.delivery { $0.source == .fresh })
        await first.shutdown()
        server.stop()

        let second = TabBarClient(configuration: configuration)
        await second.start()
        let cached = try #require(second.current)
        #expect(cached.source == .cached)
        #expect(cached.tabBar == fresh.tabBar)
        #expect(cached.etag == fresh.etag)
        let failed = await second.status { $0.connection == .unreachable }
        #expect(failed != nil)
        #expect(second.current?.source == .cached)
        await second.shutdown()
    }

    @Test("First launch offline: the bundled default is delivered, marked bundled")
    func firstLaunchOffline() async throws {
        let server = try ClientTestServer()
        defer { server.close() }
        server.stop()
        let client = server.client(bundled: ClientFixtures.bundled)
        await client.start()
        let delivery = try #require(client.current)
        #expect(delivery.source == .bundled)
        #expect(delivery.tabBar == ClientFixtures.bundled)
        #expect(delivery.etag == nil)
        await #expect(throws: TabBarClientError.self) { try await client.refresh() }
        #expect(client.current?.source == .bundled)
        await client.shutdown()
    }

    @Test("Revalidation: the service answers 304 to the held ETag, and the delivery is fresh with that ETag")
    func notModified() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let configuration = server.configuration()
        let first = TabBarClient(configuration: configuration)
        let fresh = try await first.refresh()
        await first.shutdown()
        let answered = ["route": "/v1/clients/{client}/tabs", "status": "200"]
        let notModified = ["route": "/v1/clients/{client}/tabs", "status": "304"]
        #expect(try await server.settledCount(answered, expected: 1) == 1)

        let second = TabBarClient(configuration: configuration)
        await second.start()
        #expect(second.current?.source == .cached)
        let confirmed = try #require(await second.delivery { $0.source == .fresh })
        #expect(confirmed.etag == fresh.etag)
        #expect(confirmed.tabBar == fresh.tabBar)
        #expect(try await server.settledCount(notModified, expected: 1) == 1)
        let again = try await second.refresh()
        #expect(again.etag == fresh.etag)
        #expect(try await server.settledCount(notModified, expected: 2) == 2)
        #expect(try await server.settledCount(answered, expected: 1) == 1)
        await second.shutdown()
    }

    @Test("A kept answer to another request (another user, another app version) is not served")
    func otherRequestNotServed() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let alice = server.configuration(user: .id("alice"))
        let first = TabBarClient(configuration: alice)
        _ = try await first.refresh()
        await first.shutdown()
        server.stop()

        let bob = server.client(user: .id("bob"), bundled: ClientFixtures.bundled)
        await bob.start()
        #expect(bob.current?.source == .bundled)
        await bob.shutdown()

        var updated = alice
        updated.context.appVersion = "5.3.0"
        let newBuild = TabBarClient(configuration: updated)
        await newBuild.start()
        #expect(newBuild.current == nil)
        await newBuild.shutdown()

        let same = TabBarClient(configuration: alice)
        await same.start()
        #expect(same.current?.source == .cached)
        await same.shutdown()
    }

    @Test("A damaged kept answer is ignored (the bundled default is served) and replaced by the next answer")
    func damagedCache() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let storage = server.configuration().storageDirectory
        try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
        let file = ClientStorage(server.configuration()).answerFile
        try Data("{\"request\": \"GET http://".utf8).write(to: file)
        let client = server.client(bundled: ClientFixtures.bundled)
        await client.start()
        #expect(client.current?.source == .bundled)
        let fresh = try #require(await client.delivery { $0.source == .fresh })
        await client.shutdown()
        let kept = try #require(ClientStorage(server.configuration()).loadAnswer())
        #expect(kept.etag == fresh.etag)
    }
}
