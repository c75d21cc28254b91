import Foundation
import TabConfigClient
import TestSupport
import Testing

@Suite("TabBarPresenter and TabBar.applying against the real service")
struct TabBarPresenterServerTests {
    @Test("A reorder and a hide saved to the service come back exactly as TabBar.applying showed them")
    func savedEditMatchesLocalRendering() async throws {
        try await Self.withService { service in
            let tabs: [[String: Any]] = [
                ClientFixtures.tab("home", hideable: false), ClientFixtures.tab("search", hideable: true),
                ClientFixtures.tab("inbox", locked: true, hideable: false),
                ClientFixtures.tab("library", hideable: false), ClientFixtures.tab("favorites", hideable: false),
                ClientFixtures.tab("profile", hideable: false), ClientFixtures.tab("settings", hideable: false),
            ]
            try await service.publish("ios-phone", Self.config(tabs, maxVisibleTabs: 5))
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
        try await Self.withService { service in
            for scenario in 0..<24 {
                let client = "random-\(scenario)"
                let ids = (0..<Int.random(in: 3...9, using: &random)).map { "t\($0)" }
                let hideable = ids.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
                let tabs = ids.map { id in
                    ClientFixtures.tab(
                        id, locked: Int.random(in: 0..<4, using: &random) == 0, hideable: hideable.contains(id))
                }
                let maxVisibleTabs = Int.random(in: 2...6, using: &random)
                try await service.publish(client, Self.config(tabs, maxVisibleTabs: maxVisibleTabs))

                // A partial order (with an id the config lacks) over the default tab bar.
                let served = try await service.userTabBar(client, user: "u")
                let listed = ids.shuffled(using: &random).prefix(Int.random(in: 0...ids.count, using: &random))
                let hidden = hideable.filter { _ in Bool.random(using: &random) }
                let first = TabOrderState(order: Array(listed) + ["gone"], hidden: hidden)
                try await service.saveOrder(client, user: "u", first)
                let answer = try await service.userTabBar(client, user: "u")
                let local = served.applying(first)
                let layout = answer.layout
                #expect(local.layout == layout, "scenario \(scenario): \(first)")
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
                    shown.layout == next.layout,
                    "scenario \(scenario): \(edit.edited)")
                #expect(shown.tabs == next.tabs, "scenario \(scenario)")
            }
        }
    }

    /// Runs `body` against a started service, then closes it.
    private static func withService(_ body: (ClientTestServer) async throws -> Void) async throws {
        let service = try ClientTestServer()
        defer { service.close() }
        try await body(service)
    }

    /// A config document of `tabs`.
    private static func config(_ tabs: [[String: Any]], maxVisibleTabs: Int) -> [String: Any] {
        ["tabs": tabs, "maxVisibleTabs": maxVisibleTabs, "defaultLocale": "en"]
    }
}
