import Foundation
import MicroHTTPTesting
import TabBarModel
import Testing

/// The merge (docs/design/model.md, "The merge") through the real server: save as a user, publish a new config, read the merge.
@Suite("merge rules over HTTP")
struct MergeEndpointTests {
    typealias F = Fixtures

    @Test("the merge example: shop added, settings dropped, home locked")
    func designExample() throws {
        try TestApp.with { app in
            try app.publish("app", F.designExample)
            #expect(try app.saveOrder("app", "u1", order: ["settings", "profile", "favorites", "library", "search", "home"]).status == 200)
            try app.publish("app", F.config([
                F.tab("home", locked: true), F.tab("shop"), F.tab("search"), F.tab("library"), F.tab("favorites"),
                F.tab("profile"),
            ]))
            let bar = try app.userTabs("app", "u1")
            #expect(bar.tabs.map(\.id) == ["home", "shop", "profile", "favorites", "library", "search"])
            let summary = try #require(bar.customization)
            #expect(summary.source == "user")
            #expect(summary.revision == 1)
            #expect(summary.added == ["shop"])
            #expect(summary.dropped == ["settings"])
            #expect(bar.tabs.map(\.placement) == [.bar, .bar, .bar, .bar, .more, .more])
        }
    }

    @Test("a replaced tab inherits the user's position")
    func replaced() throws {
        try TestApp.with { app in
            try app.publish("app", F.config([F.tab("home"), F.tab("web"), F.tab("search")]))
            _ = try app.saveOrder("app", "u2", order: ["search", "web", "home"])
            try app.publish("app", F.config([F.tab("home"), F.tab("search"), F.tab("feed", replaces: "web")]))
            let bar = try app.userTabs("app", "u2")
            #expect(bar.tabs.map(\.id) == ["search", "feed", "home"])
            #expect(bar.customization?.replaced == ["web": "feed"])
            #expect(bar.customization?.dropped == [])
            #expect(bar.customization?.added == [])
        }
    }

    @Test("a locked tab keeps its slot whatever the user saved")
    func locked() throws {
        try TestApp.with { app in
            try app.publish("app", F.config([F.tab("home", locked: true), F.tab("a"), F.tab("b"), F.tab("c")]))
            _ = try app.saveOrder("app", "u3", order: ["c", "b", "a", "home"])
            #expect(try app.userTabs("app", "u3").tabs.map(\.id) == ["home", "c", "b", "a"])
        }
    }

    @Test("hidden tabs disappear; only hideable ones can be hidden")
    func hidden() throws {
        try TestApp.with { app in
            _ = try app.saveOrder("ios-phone", "u4", order: [], hidden: ["settings", "downloads"])
            let bar = try app.userTabs("ios-phone", "u4")
            #expect(bar.tabs.map(\.id) == ["home", "search", "library", "favorites", "profile"])
            #expect(bar.tabs.allSatisfy { $0.placement == .bar })
            #expect(Set(bar.customization?.hidden ?? []) == ["settings", "downloads"])
            #expect(try app.saveOrder("ios-phone", "u4", order: [], hidden: ["profile"]).status == 422)
        }
    }

    @Test("a removed tab is dropped and reported")
    func dropped() throws {
        try TestApp.with { app in
            try app.publish("app", F.config([F.tab("a"), F.tab("b"), F.tab("c")]))
            _ = try app.saveOrder("app", "u5", order: ["c", "b", "a"])
            try app.publish("app", F.config([F.tab("a"), F.tab("c")]))
            let bar = try app.userTabs("app", "u5")
            #expect(bar.tabs.map(\.id) == ["c", "a"])
            #expect(bar.customization?.dropped == ["b"])
        }
    }

    @Test("an added tab takes its default slot")
    func added() throws {
        try TestApp.with { app in
            try app.publish("app", F.config([F.tab("a"), F.tab("b"), F.tab("c")]))
            _ = try app.saveOrder("app", "u6", order: ["c", "b", "a"])
            try app.publish("app", F.config([F.tab("a"), F.tab("b"), F.tab("new"), F.tab("c")]))
            let bar = try app.userTabs("app", "u6")
            #expect(bar.tabs.map(\.id) == ["c", "b", "new", "a"])
            #expect(bar.customization?.added == ["new"])
        }
    }
}
