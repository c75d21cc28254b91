import Foundation
import Synchronization
import Testing
import TestSupport

@testable import TabConfigClient

@Suite("TabBarClient: refused tokens, against the real service with user authentication")
struct TabBarClientAuthTests {
    @Test("After a 401 the client sends nothing (fetch, poll, events, save) until the provider gives another token")
    func unauthorizedStopsRequests() async throws {
        let server = try await ClientTestServer.published { $0.userAuth.hs256Secret = ClientTestServer.hs256Secret }
        defer { server.close() }
        let published = try await server.requestCount()
        let good = try await ClientFixtures.token(for: "locked-out")
        // The user's own token, which the service refuses: a save made with it is still the user's to send.
        let refused = try await ClientFixtures.token(for: "locked-out", secret: "another-hs256-secret-0123456789abcdef")
        let current = Mutex<String?>(refused)
        let client = server.client(user: .me, tokens: { current.withLock { $0 } }, refresh: .milliseconds(100))
        await client.start()
        await client.setActive(true)
        let unauthorized = await client.status { $0.connection == .unauthorized(status: 401) }
        #expect(
            unauthorized?.lastError
                == .unauthorized(status: 401, problem: unauthorized?.lastError.flatMap(\.problem)))
        #expect(try await server.settledCount(expected: published + 1) == published + 1)

        try await Task.sleep(for: .seconds(1))
        await #expect(throws: TabBarClientError.self) { try await client.refresh() }
        let edit = TabOrderEdit(
            base: TabOrderState(order: ClientFixtures.ids),
            edited: TabOrderState(order: ClientFixtures.ids.reversed()))
        let outcome = try await client.save(edit, baseRevision: 0)
        guard case .pending(.unauthorized?) = outcome else {
            Issue.record("a save with a refused token stays pending, got \(outcome)")
            return
        }
        #expect(try await client.sendPendingSave() == outcome)
        #expect(try await server.settledCount(expected: published + 1) == published + 1)
        #expect(client.status.connection == .unauthorized(status: 401))
        #expect(client.status.eventStream == .stopped)

        current.withLock { $0 = good }
        let fresh = try #require(await client.delivery { $0.source == .fresh && !$0.hasPendingSave })
        #expect(fresh.tabBar.tabs.map(\.id) == ClientFixtures.ids.reversed())
        #expect(try await server.storedOrder("app", "locked-out", token: good).revision == 1)
        #expect(try await server.settledCount(["status": "401"], expected: 1) == 1)
        #expect(client.status.connection == .reachable)
        await client.shutdown()
    }
}

extension TabBarClientError {
    /// The problem the service answered, if any.
    fileprivate var problem: Problem? {
        switch self {
        case .unauthorized(_, let problem), .server(_, let problem): problem
        case .rejected(let problem): problem
        default: nil
        }
    }
}
