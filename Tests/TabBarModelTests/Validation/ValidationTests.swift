import TabBarModel
import Testing

/// One semantic rule: a config that breaks it and the pointers of the problems it must produce.
struct ValidationCase: Sendable, CustomTestStringConvertible {
    let name: String
    let config: TabBarConfig
    let pointers: [String]

    var testDescription: String { name }

    static let base = TabBarConfig.make(["a", "b"])
    static let long = String(repeating: "x", count: 257)

    static func tab(_ change: @escaping (inout Tab) -> Void) -> TabBarConfig {
        base.modifying(tab: 0, change)
    }

    static func config(_ change: (inout TabBarConfig) -> Void) -> TabBarConfig {
        var copy = base
        change(&copy)
        return copy
    }

    static let all: [ValidationCase] = [
        .init(name: "one tab", config: .make(["a"]), pointers: ["/tabs"]),
        .init(name: "51 tabs", config: .make((0..<51).map { "t\($0)" }), pointers: ["/tabs"]),
        .init(name: "id pattern", config: tab { $0.id = "Home" }, pointers: ["/tabs/0/id"]),
        .init(name: "id too long", config: tab { $0.id = String(repeating: "a", count: 65) }, pointers: ["/tabs/0/id"]),
        .init(name: "duplicate top-level id", config: .make(["a", "b", "a"]), pointers: ["/tabs/2/id"]),
        .init(
            name: "duplicate id in hierarchy",
            config: base.modifying(tab: 1) { $0.children = [.make("a")] },
            pointers: ["/tabs/1/children/0/id"]
        ),
        .init(
            name: "depth",
            config: tab { $0.children = [.make("c", children: [.make("d", children: [.make("e")])])] },
            pointers: ["/tabs/0/children/0/children/0/children"]
        ),
        .init(
            name: "too many children",
            config: tab { $0.children = (0..<51).map { .make("c\($0)") } },
            pointers: ["/tabs/0/children"]
        ),
        .init(name: "maxVisibleTabs low", config: config { $0.maxVisibleTabs = 1 }, pointers: ["/maxVisibleTabs"]),
        .init(name: "maxVisibleTabs high", config: config { $0.maxVisibleTabs = 11 }, pointers: ["/maxVisibleTabs"]),
        .init(name: "initialTab unknown", config: config { $0.initialTab = "zzz" }, pointers: ["/initialTab"]),
        .init(
            name: "initialTab disabled",
            config: config {
                $0.initialTab = "a"
                $0.tabs[0].enabled = false
            },
            pointers: ["/initialTab"]
        ),
        .init(
            name: "initialTab child",
            config: config {
                $0.initialTab = "c"
                $0.tabs[0].children = [.make("c")]
            },
            pointers: ["/initialTab"]
        ),
        .init(name: "title empty", config: tab { $0.title.default = "" }, pointers: ["/tabs/0/title/default"]),
        .init(
            name: "title too long",
            config: tab { $0.title.default = String(repeating: "é", count: 65) },
            pointers: ["/tabs/0/title/default"]
        ),
        .init(name: "title key too long", config: tab { $0.title.key = long }, pointers: ["/tabs/0/title/key"]),
        .init(
            name: "localized tag",
            config: tab { $0.title.localized = ["english": "x", "en_US": "y", "fr": "z"] },
            pointers: ["/tabs/0/title/localized/en_US", "/tabs/0/title/localized/english"]
        ),
        .init(
            name: "localized value",
            config: tab { $0.title.localized = ["fr": "", "de": String(repeating: "x", count: 65)] },
            pointers: ["/tabs/0/title/localized/de", "/tabs/0/title/localized/fr"]
        ),
        .init(name: "defaultLocale", config: config { $0.defaultLocale = "e" }, pointers: ["/defaultLocale"]),
        .init(
            name: "colours",
            config: config {
                $0.appearance = Appearance(
                    tintColor: "blue",
                    selectedTintColor: "#12345",
                    unselectedTintColor: "#12345G"
                )
            },
            pointers: ["/appearance/tintColor", "/appearance/selectedTintColor", "/appearance/unselectedTintColor"]
        ),
        .init(
            name: "long strings",
            config: config {
                $0.tabs[0].icon = Icon(image: long, selectedImage: long)
                $0.tabs[0].badge = long
                $0.tabs[1].destination.nib = long
                $0.appearance = Appearance(backgroundImage: long)
            },
            pointers: [
                "/tabs/0/icon/image", "/tabs/0/icon/selectedImage", "/tabs/0/badge", "/tabs/1/destination/nib",
                "/appearance/backgroundImage",
            ]
        ),
        .init(
            name: "parameter value too long",
            config: tab { $0.destination.parameters = ["k": long] },
            pointers: ["/tabs/0/destination/parameters/k"]
        ),
        .init(
            name: "too many parameters",
            config: tab { tab in
                tab.destination.parameters = Dictionary(uniqueKeysWithValues: (0..<33).map { ("k\($0)", "v") })
            },
            pointers: ["/tabs/0/destination/parameters"]
        ),
        .init(
            name: "replaces a tab that is not deprecated",
            config: base.modifying(tab: 1) { $0.replaces = "a" },
            pointers: ["/tabs/1/replaces"]
        ),
        .init(name: "replaces itself", config: tab { $0.replaces = "a" }, pointers: ["/tabs/0/replaces"]),
        .init(name: "replaces pattern", config: tab { $0.replaces = "Old Tab" }, pointers: ["/tabs/0/replaces"]),
        .init(
            name: "viewController without name",
            config: tab { $0.destination = Destination(type: .viewController) },
            pointers: ["/tabs/0/destination/name"]
        ),
        .init(
            name: "viewController with url and identifier",
            config: tab {
                $0.destination = Destination(type: .viewController, name: "X", identifier: "i", url: "https://x.com")
            },
            pointers: ["/tabs/0/destination/identifier", "/tabs/0/destination/url"]
        ),
        .init(
            name: "storyboard with nib and embed",
            config: tab {
                $0.destination = Destination(
                    type: .storyboard,
                    name: "S",
                    nib: "n",
                    embedInNavigationController: true,
                    identifier: "i"
                )
            },
            pointers: ["/tabs/0/destination/nib", "/tabs/0/destination/embedInNavigationController"]
        ),
        .init(
            name: "storyboard with empty name",
            config: tab { $0.destination = Destination(type: .storyboard, name: "") },
            pointers: ["/tabs/0/destination/name"]
        ),
        .init(
            name: "url without url",
            config: tab { $0.destination = Destination(type: .url) },
            pointers: ["/tabs/0/destination/url"]
        ),
        .init(
            name: "url with name",
            config: tab { $0.destination = Destination(type: .url, name: "X", url: "https://example.com") },
            pointers: ["/tabs/0/destination/name"]
        ),
        .init(
            name: "malformed urls",
            config: config {
                $0.tabs = ["has space", "http:/relative", "https://", "no-scheme", "1app:x", "myapp:"].enumerated().map
                {
                    Tab(
                        id: "t\($0.offset)",
                        title: LocalizedTitle(default: "T"),
                        destination: Destination(type: .url, url: $0.element)
                    )
                }
            },
            pointers: (0..<6).map { "/tabs/\($0)/destination/url" }
        ),
    ]
}

@Suite("Config validation")
struct ValidationTests {
    @Test(arguments: ValidationCase.all)
    func ruleProducesProblemAtPointer(_ rule: ValidationCase) {
        #expect(rule.config.problemPointers == rule.pointers)
    }

    @Test func acceptsWhatTheRulesAllow() {
        let url = [
            "https://example.com/x?y=1", "http://localhost:8080", "myapp://tabs/home", "mailto:team@example.com",
        ]
        var config = TabBarConfig.make(["a.b_c-1", "b"] + url.indices.map { "u\($0)" }, maxVisibleTabs: 10)
        for (index, value) in url.enumerated() {
            config.tabs[index + 2].destination = Destination(type: .url, url: value, parameters: ["source": "tab"])
        }
        config.tabs[0].title = LocalizedTitle(
            key: "KEY",
            default: String(repeating: "x", count: 64),
            localized: ["en": "A", "fr": "B", "de-CH": "C", "zh-Hant-TW": "D", "es-419": "E"]
        )
        config.tabs[0].children = [.make("c1", locked: true, hideable: true, children: [.make("c2")])]
        config.tabs[1].destination = Destination(type: .storyboard, name: "S", identifier: "Root")
        config.tabs[1].deprecated = .soft
        config.tabs[2].replaces = "b"
        config.tabs[3].replaces = "gone"
        config.initialTab = "b"
        config.defaultLocale = "en-GB"
        config.appearance = Appearance(tintColor: "#0a84ff", selectedTintColor: "#34C759CC")
        #expect(config.validate() == [])
    }

    @Test func documentWithSeveralProblemsListsEveryOne() {
        var config = TabBarConfig.make(["a", "B", "a"], maxVisibleTabs: 20)
        config.tabs[0].title.default = ""
        config.tabs[2].destination = Destination(type: .url, url: "not a url")
        config.initialTab = "nope"
        config.appearance = Appearance(tintColor: "red")
        #expect(
            config.problemPointers == [
                "/tabs/0/title/default", "/tabs/1/id", "/tabs/2/destination/url", "/tabs/2/id", "/maxVisibleTabs",
                "/initialTab", "/appearance/tintColor",
            ]
        )
        #expect(config.validate().allSatisfy { !$0.message.isEmpty })
    }

    @Test func duplicateMessageNamesTheFirstUse() throws {
        let problem = try #require(TabBarConfig.make(["a", "b", "a"]).validate().first)
        #expect(problem.message.contains("/tabs/0/id"))
    }

    @Test func defaultsApplyWhenFieldsAreAbsent() {
        var config = TabBarConfig.make(["a", "b", "c"])
        #expect(config.effectiveMaxVisibleTabs == 5)
        #expect(config.isUserCustomizable)
        #expect(config.effectiveDefaultLocale == "en")
        #expect(config.effectiveInitialTab == "a")
        config.tabs[0].enabled = false
        #expect(config.effectiveInitialTab == "b")
        config.tabs[1].deprecated = .hard
        #expect(config.effectiveInitialTab == "c")
        config.initialTab = "b"
        #expect(config.effectiveInitialTab == "b")
    }

    @Test func tabIDPattern() {
        for id in ["a", "0", "home", "tab.1_x-y", String(repeating: "a", count: 64)] {
            #expect(Tab.isValidID(id), "\(id)")
        }
        for id in ["", "A", "-a", ".a", "a b", "é", "a/b", String(repeating: "a", count: 65)] {
            #expect(!Tab.isValidID(id), "\(id)")
        }
    }
}
