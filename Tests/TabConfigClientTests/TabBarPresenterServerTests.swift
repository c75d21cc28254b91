import Foundation
import TabBarAPI
import TabConfigClient
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("TabBarPresenter and TabBar.applying against the real service")
struct TabBarPresenterServerTests {
    @Test("A reorder and a hide saved to the service come back exactly as TabBar.applying showed them")
    func savedEditMatchesLocalRendering() async throws {
        try await ServiceUnderTest.with { service in
            let tabs: [[String: Any]] = [
                ServiceUnderTest.tab("home"), ServiceUnderTest.tab("search", hideable: true),
                ServiceUnderTest.tab("inbox", locked: true), ServiceUnderTest.tab("library"),
                ServiceUnderTest.tab("favorites"), ServiceUnderTest.tab("profile"), ServiceUnderTest.tab("settings"),
            ]
            try await service.publish("ios-phone", tabs: tabs, maxVisibleTabs: 5)
            let served = try await service.userTabBar("ios-phone", user: "alice")
            let presenter = TabBarPresenter(served)
            #expect(presenter.barItems.map(\.id) == ["home", "search", "inbox", "library"])
            #expect(presenter.moreItems.map(\.id) == ["favorites", "profile", "settings"])

            // As UIKit reports it after "More → Edit", with the locked tab displaced: it is put back.
            let reordered = ["settings", "inbox", "search", "favorites", "home", "profile", "library"]
            let reorder = try #require(presenter.edit(reorderedTo: reordered))
            #expect(reorder.edited.order == ["settings", "search", "inbox", "favorites", "home", "profile", "library"])
            let hide = try #require(presenter.applying(reorder).edit(hiding: "search"))
            let edit = reorder.followed(by: hide)

            let local = TabBarPresenter(served.applying(edit.edited))
            try await service.saveOrder("ios-phone", user: "alice", edit.edited)
            let answer = try await service.userTabBar("ios-phone", user: "alice")
            let remote = TabBarPresenter(answer)
            #expect(remote.barItems.map(\.id) == ["settings", "inbox", "favorites", "home"])
            #expect(remote.moreItems.map(\.id) == ["profile", "library"])
            #expect(remote.barItems.map(\.id) == local.barItems.map(\.id))
            #expect(remote.moreItems.map(\.id) == local.moreItems.map(\.id))
            #expect(remote.hiddenIDs == ["search"])
            #expect(remote.hiddenIDs == local.hiddenIDs)
            #expect(remote.items == local.items)
            #expect(remote.state == edit.edited)
        }
    }

    @Test("Random configs and saves: TabBar.applying on the served tab bar gives the service's next answer")
    func randomSavesMatchLocalRendering() async throws {
        var random = SplitMix64(seed: 0x7AB_C0F1)
        try await ServiceUnderTest.with { service in
            for scenario in 0..<24 {
                let client = "random-\(scenario)"
                let ids = (0..<Int.random(in: 3...9, using: &random)).map { "t\($0)" }
                let hideable = ids.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
                let tabs = ids.map { id in
                    ServiceUnderTest.tab(
                        id, locked: Int.random(in: 0..<4, using: &random) == 0, hideable: hideable.contains(id))
                }
                try await service.publish(client, tabs: tabs, maxVisibleTabs: Int.random(in: 2...6, using: &random))

                // A partial order (with an id the config lacks) over the default tab bar.
                let served = try await service.userTabBar(client, user: "u")
                let listed = ids.shuffled(using: &random).prefix(Int.random(in: 0...ids.count, using: &random))
                let hidden = hideable.filter { _ in Bool.random(using: &random) }
                let first = TabOrderState(order: Array(listed) + ["gone"], hidden: hidden)
                try await service.saveOrder(client, user: "u", first)
                let answer = try await service.userTabBar(client, user: "u")
                let local = served.applying(first)
                let layout = PresenterFixtures.split(answer, separator: " ")
                #expect(PresenterFixtures.split(local, separator: " ") == layout, "scenario \(scenario): \(first)")
                #expect(local.tabs == answer.tabs, "scenario \(scenario)")
                #expect(local.customization?.hidden == answer.customization?.hidden, "scenario \(scenario)")
                #expect(local.customization?.added == answer.customization?.added, "scenario \(scenario)")

                // A full reorder through the presenter over the user's tab bar.
                let presenter = TabBarPresenter(answer)
                let shuffled = presenter.items.map(\.id).shuffled(using: &random)
                guard let edit = presenter.edit(reorderedTo: shuffled) else { continue }
                try await service.saveOrder(client, user: "u", edit.edited)
                let next = try await service.userTabBar(client, user: "u")
                let shown = presenter.applying(edit).tabBar
                #expect(
                    PresenterFixtures.split(shown, separator: " ") == PresenterFixtures.split(next, separator: " "),
                    "scenario \(scenario): \(edit.edited)")
                #expect(shown.tabs == next.tabs, "scenario \(scenario)")
            }
        }
    }
}

/// The real application on 127.0.0.1 port 0 over a temporary data directory, reached with URLSession.
private struct ServiceUnderTest {
    static let adminToken = "presenter-tests-admin-token-0123456789"

    let port: Int
    let session: URLSession

    /// Runs `body` against a started application, then shuts it down and removes its directory.
    static func with(_ body: (ServiceUnderTest) async throws -> Void) async throws {
        let directory = try TemporaryDirectory("presenter")
        defer { directory.remove() }
        var configuration = ApplicationConfiguration()
        configuration.port = 0
        configuration.dataDirectory = directory.url
        configuration.adminToken = adminToken
        configuration.shutdownGracePeriod = 2
        let application = try Application(configuration: configuration, logger: .silent)
        try application.start()
        defer { application.shutdown() }
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        let session = URLSession(configuration: sessionConfiguration)
        defer { session.finishTasksAndInvalidate() }
        try await body(ServiceUnderTest(port: application.port, session: session))
    }

    /// A config document's top-level tab.
    static func tab(_ id: String, locked: Bool = false, hideable: Bool = false) -> [String: Any] {
        [
            "id": id, "title": ["default": id.capitalized], "icon": ["image": "\(id).png"],
            "destination": ["type": "viewController", "name": "\(id.capitalized)ViewController"],
            "locked": locked, "hideable": hideable,
        ]
    }

    /// Publishes a config of `tabs` for `client`.
    func publish(_ client: String, tabs: [[String: Any]], maxVisibleTabs: Int) async throws {
        let config: [String: Any] = ["tabs": tabs, "maxVisibleTabs": maxVisibleTabs, "defaultLocale": "en"]
        let body = try JSONSerialization.data(withJSONObject: config)
        try await send("PUT", "/v1/clients/\(client)/config", body: body, admin: true, expecting: 201)
    }

    /// A user's tab bar, as the app receives it.
    func userTabBar(_ client: String, user: String) async throws -> TabBar {
        let data = try await send("GET", "/v1/clients/\(client)/users/\(user)/tabs", expecting: 200)
        return try JSONDecoder().decode(TabBar.self, from: data)
    }

    /// Saves a user's order and hidden tabs.
    func saveOrder(_ client: String, user: String, _ state: TabOrderState) async throws {
        let body = try JSONEncoder().encode(state)
        try await send("PUT", "/v1/clients/\(client)/users/\(user)/tab-order", body: body, expecting: 200)
    }

    @discardableResult
    private func send(
        _ method: String, _ path: String, body: Data? = nil, admin: Bool = false, expecting status: Int
    ) async throws -> Data {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if body != nil {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if admin {
            request.setValue("Bearer \(Self.adminToken)", forHTTPHeaderField: "Authorization")
        }
        let (data, response) = try await session.data(for: request)
        let answered = (response as? HTTPURLResponse)?.statusCode
        try #require(answered == status, "\(method) \(path): \(String(decoding: data, as: UTF8.self))")
        return data
    }
}
