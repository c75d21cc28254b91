import Foundation
import JWTKit
import Synchronization
import Testing
import TestSupport

@testable import TabConfigClient

/// The claims of a user token the service accepts.
private struct UserClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

@Suite("TabBarClient: refused tokens, against the real service with user authentication")
struct TabBarClientAuthTests {
    /// An HS256 token for `user`, valid for an hour.
    private func token(for user: String) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: ClientTestServer.hs256Secret), digestAlgorithm: .sha256)
        return try await keys.sign(
            UserClaims(sub: SubjectClaim(value: user), exp: ExpirationClaim(value: Date().addingTimeInterval(3600))))
    }

    @Test("After a 401 the client sends nothing (fetch, poll, events, save) until the provider gives another token")
    func unauthorizedStopsRequests() async throws {
        let server = try await ClientTestServer.published { $0.userAuth.hs256Secret = ClientTestServer.hs256Secret }
        defer { server.close() }
        let published = try await server.requestCount()
        let good = try await token(for: "locked-out")
        let current = Mutex<String?>("not-a-token")
        let client = server.client(user: .me, tokens: { current.withLock { $0 } }, refresh: .milliseconds(100))
        await client.start()
        await client.setActive(true)
        let refused = await client.status { $0.connection == .unauthorized(status: 401) }
        #expect(refused?.lastError == .unauthorized(status: 401, problem: refused?.lastError.flatMap(\.problem)))
        #expect(try await server.settledCount(expected: published + 1) == published + 1)

        try await Task.sleep(for: .seconds(1))
        await #expect(throws: TabBarClientError.self) { try await client.refresh() }
        let edit = TabOrderEdit(
            base: TabOrderState(order: ClientFixtures.ids),
            edited: TabOrderState(order: ClientFixtures.ids.reversed()))
        try await client.save(edit, baseRevision: 0)
        await #expect(throws: TabBarClientError.self) { try await client.sendPendingSave() }
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
