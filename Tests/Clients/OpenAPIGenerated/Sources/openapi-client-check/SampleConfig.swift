import OpenAPIRuntime

import struct Foundation.Date

/// The config the check publishes, built with the generated types so that encoding them is checked too: titles per
/// locale, icons, a badge, a destination of each type, locked, hideable, disabled, nested and deprecated tabs, a tab
/// with `when`, `rollout` and a whole-second `startsAt` / `endsAt`, an appearance, a group, an experiment and a
/// template for dynamic tabs.
enum SampleConfig {
    typealias Schemas = Components.Schemas

    /// The user the experiment's group holds.
    static let betaUser = "check-beta"
    /// `startsAt` of the `news` tab: in the past, whole seconds.
    static let newsStartsAt = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    /// `endsAt` of the `news` tab: far ahead, whole seconds.
    static let newsEndsAt = Date(timeIntervalSince1970: 4_070_908_800)  // 2099-01-01T00:00:00Z

    static func document(searchBadge: String = "3") throws -> Schemas.TabBarConfig {
        Schemas.TabBarConfig(
            tabs: [
                tab(
                    "home", "Home", localized: ["fr": "Accueil", "de": "Start"],
                    destination: .init(
                        _type: .viewController, name: "HomeViewController", nib: "HomeView",
                        embedInNavigationController: true),
                    locked: true),
                Schemas.Tab(
                    id: "search", title: .init(key: "tab.search", _default: "Search"),
                    icon: .init(image: "magnifyingglass"),
                    destination: .init(_type: .storyboard, name: "Search", identifier: "SearchRoot"),
                    badge: searchBadge),
                try news(),
                Schemas.Tab(
                    id: "library", title: .init(_default: "Library"), icon: .init(image: "books.vertical"),
                    destination: .init(_type: .viewController, name: "LibraryViewController"),
                    children: [
                        tab("library.books", "Books", destination: controller("BooksViewController")),
                        tab("library.audio", "Audio", destination: controller("AudioViewController")),
                    ]),
                tab("profile", "Profile", localized: ["fr": "Profil"], destination: controller("ProfileViewController"),
                    hideable: true),
                Schemas.Tab(
                    id: "offline", title: .init(_default: "Offline"), icon: .init(image: "arrow.down.circle"),
                    destination: controller("OfflineViewController"), hideable: true, deprecated: .soft,
                    replaces: "downloads"),
                Schemas.Tab(
                    id: "settings", title: .init(_default: "Settings"), icon: .init(image: "gear"),
                    destination: controller("SettingsViewController"), enabled: false),
            ],
            maxVisibleTabs: 4,
            initialTab: "search",
            userCustomizable: true,
            defaultLocale: "en",
            appearance: .init(
                backgroundImage: "bar.png", tintColor: "#FF3B30", selectedTintColor: "#007AFFFF",
                unselectedTintColor: "#8E8E93"),
            groups: .init(additionalProperties: ["beta-testers": [betaUser]]),
            experiments: [try experiment()],
            tabTemplates: [
                Schemas.TabTemplate(
                    id: "document", title: .init(_default: "Document", localized: localized(["fr": "Doc"])),
                    icon: .init(image: "doc"), destination: controller("DocumentViewController"),
                    parameters: ["docId"], maxOpen: 3)
            ])
    }

    /// A tab whose presence targeting decides: iOS only, rolled out to every user, between two whole seconds.
    private static func news() throws -> Schemas.Tab {
        Schemas.Tab(
            id: "news", title: .init(key: "tab.news", _default: "News", localized: localized(["fr": "Actu"])),
            icon: .init(image: "newspaper", selectedImage: "newspaper.fill"),
            destination: .init(
                _type: .url, url: "https://news.example/today",
                parameters: .init(additionalProperties: ["source": "tabbar"])),
            hideable: true,
            when: try Schemas.Condition(unvalidatedValue: ["platform": ["$in": ["ios", "ipados"]]]),
            rollout: .init(coverage: 1, seed: "news-2026", hashAttribute: "userId"),
            startsAt: newsStartsAt, endsAt: newsEndsAt)
    }

    /// An experiment for the beta group: half keep the order, half get `search` first in a bar of three.
    private static func experiment() throws -> Schemas.Experiment {
        Schemas.Experiment(
            key: "search-first",
            when: try Schemas.Condition(unvalidatedValue: ["userId": ["$inGroup": "beta-testers"]]),
            coverage: 1, seed: "search-first-2026", hashAttribute: "userId", weights: [0.5, 0.5],
            variations: [
                .init(),
                .init(
                    order: ["search", "home", "news"], maxVisibleTabs: 3, initialTab: "search",
                    appearance: .init(tintColor: "#34C759")),
            ])
    }

    private static func tab(
        _ id: String, _ title: String, localized: [String: String]? = nil, destination: Schemas.Destination,
        locked: Bool? = nil, hideable: Bool? = nil
    ) -> Schemas.Tab {
        Schemas.Tab(
            id: id, title: .init(key: "tab.\(id)", _default: title, localized: localized.map(Self.localized)),
            icon: .init(image: id, selectedImage: "\(id).fill"), destination: destination, locked: locked,
            hideable: hideable)
    }

    private static func localized(_ titles: [String: String]) -> Schemas.LocalizedTitle.LocalizedPayload {
        .init(additionalProperties: titles)
    }

    private static func controller(_ name: String) -> Schemas.Destination {
        .init(_type: .viewController, name: name, embedInNavigationController: true)
    }
}
