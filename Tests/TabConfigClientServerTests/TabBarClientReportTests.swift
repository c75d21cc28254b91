import Foundation
import TabBarAPI
import TestSupport
import Testing

@testable import TabConfigClient

/// The client's reports against the real service's staged rollouts (docs/rollouts.md).
@Suite("TabBarClient: reports of tab opens, against the real service")
struct TabBarClientReportTests {
    /// The six fixture tabs and `shop`, staged 99.9 % then everyone, rolled back past half failures over 3 opens.
    static var staged: [String: Any] {
        var config = ClientFixtures.config(ClientFixtures.ids)
        var tabs = config["tabs"] as? [[String: Any]] ?? []
        var shop = ClientFixtures.tab("shop")
        shop["rollout"] = [
            "stages": [["coverage": 0.999, "hold": "PT1H"], ["coverage": 1]],
            "guard": ["maxFailureRate": 0.5, "minOpens": 3],
        ]
        tabs.append(shop)
        config["tabs"] = tabs
        return config
    }

    /// The state of `shop`'s rollout as `GET …/rollouts` shows it.
    static func shopState(_ server: ClientTestServer) async throws -> String? {
        let answer = try await server.request(
            "GET", "/v1/clients/app/rollouts", headers: ["Authorization": "Bearer \(ClientTestServer.adminToken)"])
        let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        let rollouts = object?["rollouts"] as? [[String: Any]]
        return rollouts?.first { $0["tab"] as? String == "shop" }?["state"] as? String
    }

    @Test("a tab whose screen fails to open, reported by the client, is rolled back, and the next launch has no such tab")
    func failingTabRollsBack() async throws {
        let server = try ClientTestServer { $0.rolloutInterval = 1 }
        defer { server.close() }
        try await server.publish("app", Self.staged)
        let configuration = server.configuration(user: .id("alice"))
        let client = TabBarClient(configuration: configuration)
        let first = try await client.refresh()
        try #require(first.tabBar.tabs.contains { $0.id == "shop" }, "alice is in the first stage")
        for _ in 0..<3 { client.reportOpenFailure(tab: "shop") }
        await client.setActive(true)
        await client.setActive(false)
        var state: String?
        let deadline = Date().addingTimeInterval(20)
        while state != "rolledBack", Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            state = try await Self.shopState(server)
        }
        #expect(state == "rolledBack")
        await client.shutdown()

        let nextLaunch = TabBarClient(configuration: configuration)
        let next = try await nextLaunch.refresh()
        #expect(!next.tabBar.tabs.contains { $0.id == "shop" })
        await nextLaunch.shutdown()
    }
}
