import TabBarModel
import Testing

@Suite("Resolution and merge")
struct ResolutionTests {
    static func saved(_ order: [String], hidden: [String] = [], revision: UInt64 = 3) -> SavedCustomization {
        .saved(Customization(order: order, hidden: hidden), revision: revision)
    }

    static func summary(_ config: TabBarConfig, _ saved: SavedCustomization) throws -> CustomizationSummary {
        try #require(config.resolve(client: "ios-phone", version: 1, locale: "en", saved: saved).customization)
    }

    @Test func designWorkedExample() throws {
        var config = TabBarConfig.make(["home", "shop", "search", "library", "favorites", "profile"])
        config.tabs[0].locked = true
        let saved = Self.saved(["settings", "profile", "favorites", "library", "search", "home"])
        #expect(config.resolvedIDs(saved) == ["home", "shop", "profile", "favorites", "library", "search"])
        let summary = try Self.summary(config, saved)
        #expect(summary.source == "user")
        #expect(summary.revision == 3)
        #expect(summary.added == ["shop"])
        #expect(summary.dropped == ["settings"])
        #expect(summary.replaced == [:])
        #expect(summary.hidden == [])
    }

    @Test func addedTabTakesItsDefaultSlot() throws {
        let config = TabBarConfig.make(["a", "e", "b", "c", "d"])
        let saved = Self.saved(["d", "c", "b", "a"])
        #expect(config.resolvedIDs(saved) == ["d", "e", "c", "b", "a"])
        #expect(try Self.summary(config, saved).added == ["e"])
    }

    @Test func goneIDsAreDroppedInSavedOrder() throws {
        let config = TabBarConfig.make(["a", "b", "c"])
        let saved = Self.saved(["x", "c", "y", "b", "a", "x"])
        #expect(config.resolvedIDs(saved) == ["c", "b", "a"])
        let summary = try Self.summary(config, saved)
        #expect(summary.dropped == ["x", "y"])
        #expect(summary.added == [])
    }

    @Test func replacementInheritsThePosition() throws {
        var config = TabBarConfig.make(["a", "feed", "c"])
        config.tabs[1].replaces = "web"
        let saved = Self.saved(["c", "web", "a"])
        #expect(config.resolvedIDs(saved) == ["c", "feed", "a"])
        let summary = try Self.summary(config, saved)
        #expect(summary.replaced == ["web": "feed"])
        #expect(summary.added == [])
        #expect(summary.dropped == [])
    }

    @Test func softDeprecatedTabStaysAndItsReplacementIsAdded() throws {
        var config = TabBarConfig.make(["a", "web", "c", "feed"])
        config.tabs[1].deprecated = .soft
        config.tabs[3].replaces = "web"
        let saved = Self.saved(["c", "web", "a"])
        let bar = config.resolve(client: "ios-phone", version: 1, locale: "en", saved: saved)
        #expect(bar.tabs.map(\.id) == ["c", "web", "a", "feed"])
        #expect(bar.tabs[1].deprecated == .soft)
        #expect(bar.customization?.added == ["feed"])
        #expect(bar.customization?.replaced == [:])
    }

    @Test func hardDeprecatedTabIsNotShownAndIsReplaced() throws {
        var config = TabBarConfig.make(["a", "web", "c", "feed"])
        config.tabs[1].deprecated = .hard
        config.tabs[3].replaces = "web"
        #expect(config.resolvedIDs(nil) == ["a", "c", "feed"])
        let saved = Self.saved(["c", "web", "a"])
        #expect(config.resolvedIDs(saved) == ["c", "feed", "a"])
        #expect(try Self.summary(config, saved).replaced == ["web": "feed"])
    }

    @Test func replacementChainsThroughHardDeprecatedTabs() throws {
        var config = TabBarConfig.make(["a", "web", "feed"])
        config.tabs[1].deprecated = .hard
        config.tabs[1].replaces = "old"
        config.tabs[2].replaces = "web"
        let saved = Self.saved(["old", "a"])
        #expect(config.resolvedIDs(saved) == ["feed", "a"])
        #expect(try Self.summary(config, saved).replaced == ["old": "feed"])
    }

    @Test func replacementAlreadyInSavedOrderDropsTheOldID() throws {
        var config = TabBarConfig.make(["a", "feed", "c"])
        config.tabs[1].replaces = "web"
        let saved = Self.saved(["c", "web", "a", "feed"])
        #expect(config.resolvedIDs(saved) == ["c", "a", "feed"])
        let summary = try Self.summary(config, saved)
        #expect(summary.replaced == [:])
        #expect(summary.dropped == ["web"])
    }

    @Test func lockedTabKeepsItsSlot() throws {
        var config = TabBarConfig.make(["a", "home", "b", "c"])
        config.tabs[1].locked = true
        let saved = Self.saved(["home", "c", "b", "a"])
        #expect(config.resolvedIDs(saved) == ["c", "home", "b", "a"])
        #expect(try Self.summary(config, saved).added == [])
    }

    @Test func onlyHideableTabsCanBeHidden() throws {
        let saved = Self.saved(
            ["home", "search", "library", "favorites", "profile", "settings", "downloads"],
            hidden: ["settings", "home", "gone", "settings"]
        )
        let bar = TabBarConfig.sample.resolve(client: "ios-phone", version: 1, locale: "en", saved: saved)
        #expect(bar.tabs.map(\.id) == ["home", "search", "library", "favorites", "profile", "downloads"])
        #expect(bar.customization?.hidden == ["settings"])
        #expect(bar.customization?.added == [])
    }

    @Test func hiddenTabIsNotAdded() throws {
        var config = TabBarConfig.make(["a", "b", "c"])
        config.tabs[2].hideable = true
        let saved = Self.saved(["b", "a"], hidden: ["c"])
        #expect(config.resolvedIDs(saved) == ["b", "a"])
        #expect(try Self.summary(config, saved).added == [])
    }

    @Test func duplicatesInSavedOrderAreDropped() throws {
        let config = TabBarConfig.make(["a", "b", "c"])
        let saved = Self.saved(["c", "c", "b", "a", "b"])
        #expect(config.resolvedIDs(saved) == ["c", "b", "a"])
        let summary = try Self.summary(config, saved)
        #expect(summary.dropped == [])
        #expect(summary.added == [])
    }

    @Test func undecodableGivesDefaultOrderWithSourceDefault() throws {
        let config = TabBarConfig.make(["a", "b", "c"])
        #expect(config.resolvedIDs(.undecodable(revision: 7)) == ["a", "b", "c"])
        let summary = try Self.summary(config, .undecodable(revision: 7))
        #expect(summary == CustomizationSummary(source: "default", revision: 7))
    }

    @Test func neverSavedGivesDefaultOrderWithRevisionZero() throws {
        let config = TabBarConfig.make(["a", "b", "c"])
        #expect(config.resolvedIDs(SavedCustomization.none) == ["a", "b", "c"])
        #expect(try Self.summary(config, .none) == CustomizationSummary(source: "default", revision: 0))
    }

    @Test func defaultVariantHasNoCustomization() {
        let bar = TabBarConfig.sample.resolve(client: "ios-phone", version: 4, locale: "en", saved: nil)
        #expect(bar.customization == nil)
        #expect(bar.client == "ios-phone")
        #expect(bar.version == 4)
        #expect(bar.initialTab == "home")
        #expect(bar.maxVisibleTabs == 5)
        #expect(bar.appearance == TabBarConfig.sample.appearance)
        #expect(bar.tabs.map(\.id) == TabBarConfig.sample.tabs.map(\.id))
    }

    @Test func placementOverflowsIntoMore() {
        let seven = TabBarConfig.make(["a", "b", "c", "d", "e", "f", "g"], maxVisibleTabs: 5)
        let placements = seven.resolve(client: "c", version: 1, locale: "en", saved: nil).tabs.map(\.placement)
        #expect(placements == [.bar, .bar, .bar, .bar, .more, .more, .more])
        let five = TabBarConfig.make(["a", "b", "c", "d", "e"])
        #expect(
            five.resolve(client: "c", version: 1, locale: "en", saved: nil).tabs.allSatisfy { $0.placement == .bar }
        )
        let six = TabBarConfig.make(["a", "b", "c", "d", "e", "f"], maxVisibleTabs: 2)
        let sixPlacements = six.resolve(client: "c", version: 1, locale: "en", saved: nil).tabs.map(\.placement)
        #expect(sixPlacements == [.bar, .more, .more, .more, .more, .more])
    }

    @Test func placementFollowsTheMergedOrder() {
        let seven = TabBarConfig.make(["a", "b", "c", "d", "e", "f", "g"], maxVisibleTabs: 5)
        let tabs = seven.resolve(
            client: "c",
            version: 1,
            locale: "en",
            saved: Self.saved(["g", "f", "e", "d", "c", "b", "a"])
        ).tabs
        #expect(tabs.filter { $0.placement == .bar }.map(\.id) == ["g", "f", "e", "d"])
    }

    @Test func tabsAreLocalizedWithDefaultsApplied() throws {
        var config = TabBarConfig.sample
        config.tabs[2].enabled = false
        config.tabs[1].children = [
            .make("recent", locked: true, hideable: true, localized: ["fr": "Récents"]),
            .make("old", deprecated: .hard),
        ]
        let bar = config.resolve(client: "ios-phone", version: 1, locale: "fr", saved: nil)
        #expect(bar.locale == "fr")
        #expect(
            bar.tabs.map(\.title) == [
                "Accueil", "Rechercher", "Bibliothèque", "Favoris", "Profil", "Réglages", "Téléchargements",
            ]
        )
        let home = bar.tabs[0]
        #expect(home.titleKey == "HOME_TAB")
        #expect(home.locked && !home.hideable && home.enabled)
        #expect(home.children == nil)
        #expect(bar.tabs[2].enabled == false)
        #expect(bar.tabs[3].badge == "3")
        #expect(bar.tabs[6].hideable)
        let children = try #require(bar.tabs[1].children)
        #expect(children.map(\.id) == ["recent"])
        #expect(children[0].title == "Récents")
        #expect(children[0].placement == nil)
        #expect(!children[0].locked && !children[0].hideable)
    }

    @Test func resolvedJSONIsCompactAndOmitsAbsentFields() throws {
        let bar = TabBarConfig.sample.resolve(client: "ios-phone", version: 1, locale: "en", saved: nil)
        let text = try #require(String(data: bar.encoded(), encoding: .utf8))
        #expect(!text.contains("customization"))
        #expect(!text.contains("null"))
        #expect(text.contains("\"placement\":\"bar\""))
        #expect(text.contains("https://example.com/downloads"))
    }
}
