import Foundation
import TabBarModel
import TabBarStore
import Testing
import TestSupport
@testable import TabBarAPI

@Suite("Pre-encoded tab bars")
struct EncodedTabBarTests {
    private static func live(_ config: TabBarConfig, version: Int = 3) -> LiveConfig {
        LiveConfig(
            stored: ConfigVersion(
                client: "ios-phone", version: version, publishedAt: Date(timeIntervalSince1970: 0), note: nil,
                rollbackOf: nil, document: Data()),
            config: config)
    }

    /// The sample with a replaced tab, a hard-deprecated one and titles that need escaping.
    private static var variedConfig: TabBarConfig {
        var config = TabBarConfig.sample
        config.tabs[2].replaces = "books"
        config.tabs[5].deprecated = .hard
        config.tabs[1].title.default = "Search \"all\" \\ ünïcode ✓ / tab"
        return config
    }

    private static func randomSaved(ids: [String], using generator: inout SplitMix64) -> SavedCustomization {
        switch generator.next() % 8 {
        case 0: return .none
        case 1: return .undecodable(revision: generator.next() % 100)
        default:
            let pool = ids + ["books", "gone", "other-tab"]
            let order = Array(pool.shuffled(using: &generator).prefix(Int(generator.next() % UInt64(pool.count + 1))))
            let hidden = Array(pool.shuffled(using: &generator).prefix(Int(generator.next() % 3)))
            return .saved(Customization(order: order, hidden: hidden), revision: 1 + generator.next() % 1000)
        }
    }

    @Test("every user body equals encoding the resolved tab bar, over 2,000 random customizations", arguments: [false, true])
    func matchesTheEncoder(varied: Bool) {
        let config = varied ? Self.variedConfig : TabBarConfig.sample
        let live = Self.live(config)
        let ids = config.tabs.map(\.id)
        var generator = SplitMix64(seed: varied ? 7 : 11)
        for locale in config.availableLocales.sorted() {
            let encoded = EncodedTabBar(live: live, locale: locale, outcome: .everything)
            let expectedDefault = CanonicalJSON.encode(
                config.resolve(client: "ios-phone", version: 3, locale: locale, saved: nil))
            #expect(encoded.defaultBody == expectedDefault)
            for _ in 0..<1000 / max(config.availableLocales.count, 1) + 1 {
                let saved = Self.randomSaved(ids: ids, using: &generator)
                let expected = CanonicalJSON.encode(
                    config.resolve(client: "ios-phone", version: 3, locale: locale, saved: saved))
                let body = encoded.userBody(saved)
                #expect(body == expected, "locale \(locale), \(saved)")
            }
        }
    }

    @Test("with tabs the user opened: every user body equals encoding the resolved tab bar, over 1,000 customizations")
    func matchesTheEncoderWithOpenTabs() {
        var config = TabBarConfig.sample
        config.tabTemplates = [
            TabTemplate(
                id: "document", title: LocalizedTitle(key: "DOC", default: "Document", localized: ["fr": "Document"]),
                icon: Icon(image: "doc.png"), destination: Destination(type: .viewController, name: "DocViewController"),
                parameters: ["docId"]),
            TabTemplate(
                id: "web", title: LocalizedTitle(default: "Web \"page\""),
                destination: Destination(type: .url, url: "https://example.com", parameters: ["from": "tab"]),
                parameters: ["url", "from"], maxOpen: 20),
            TabTemplate(
                id: "search", title: LocalizedTitle(default: "Search"),
                destination: Destination(type: .viewController, name: "SearchViewController"), parameters: ["q", "Q_2"]),
        ]
        let live = Self.live(config)
        var generator = SplitMix64(seed: 13)
        // Parameter names in the encoder's key order, and values it escapes; a name that is not ASCII (never
        // accepted when a tab is opened) takes the encoder's path.
        let names = ["docId", "from", "url", "q", "Q_2", "_x", "a10", "a9", "nämé"]
        let values = ["1", "tab", "https://example.com/a?b=c&d=/e", "\"quoted\" \\ ü\u{1}\n", ""]
        for locale in ["en", "fr"] {
            let encoded = EncodedTabBar(live: live, locale: locale, outcome: .everything)
            for _ in 0..<500 {
                // Some open tabs of a template the config no longer has.
                let open = (0..<Int(generator.next() % 7)).map { index in
                    let template = ["document", "web", "search", "gone"][Int(generator.next() % 4)]
                    let title = generator.next() % 2 == 0 ? nil : "Tab \(index) \"ü\" \\"
                    let parameters = Dictionary(
                        (0..<Int(generator.next() % 4)).map { _ in
                            (names[Int(generator.next() % UInt64(names.count))],
                             values[Int(generator.next() % UInt64(values.count))])
                        }, uniquingKeysWith: { first, _ in first })
                    return DynamicTab(template: template, name: "n\(index)", parameters: parameters, title: title)
                }
                let ids = config.tabs.map(\.id) + open.map(\.id)
                let order = Array(ids.shuffled(using: &generator).prefix(Int(generator.next() % UInt64(ids.count + 1))))
                let hidden = Array(ids.shuffled(using: &generator).prefix(Int(generator.next() % 3)))
                let saved = SavedCustomization.saved(
                    Customization(order: order, hidden: hidden, dynamicTabs: open), revision: 1 + generator.next() % 99)
                let expected = CanonicalJSON.encode(
                    config.resolve(client: "ios-phone", version: 3, locale: locale, saved: saved))
                #expect(encoded.userBody(saved) == expected, "locale \(locale), \(saved)")
            }
        }
    }

    @Test("an open tab is written through its template's encoding, not the encoder, with or without parameters and title")
    func openTabsAreWrittenDirectly() throws {
        let config = TabBarConfig.sample
        for template in try #require(config.tabTemplates) {
            let encoded = EncodedTemplate(template, of: config, locale: "en")
            for title in ["Mine \"ü\"", nil] {
                for parameters in [[:], Dictionary(uniqueKeysWithValues: (template.parameters ?? []).map { ($0, "v") })] {
                    let tab = DynamicTab(template: template.id, name: "t-1", parameters: parameters, title: title)
                    for inBar in [true, false] {
                        var body: [UInt8] = []
                        #expect(encoded.append(tab, inBar: inBar, to: &body), "\(tab)")
                        var resolved = config.resolvedTab(tab, locale: "en")
                        resolved.placement = inBar ? .bar : .more
                        #expect(body == Array(CanonicalJSON.encode(resolved)))
                    }
                }
            }
        }
    }

    @Test("with targeting: every outcome's user bodies equal encoding its resolved tab bar")
    func targetedOutcomes() throws {
        var document = try #require(try JSONSerialization.jsonObject(with: TabBarConfig.sample.encoded()) as? [String: Any])
        var tabs = try #require(document["tabs"] as? [[String: Any]])
        tabs[1]["when"] = ["platform": "ios"]
        tabs[3]["rollout"] = ["coverage": 0.5, "hashAttribute": "deviceId"]
        document["tabs"] = tabs
        document["experiments"] = [
            ["key": "order", "hashAttribute": "deviceId", "variations": [[:], ["order": [tabs[4]["id"]], "maxVisibleTabs": 3]]]
        ]
        let config = try TabBarConfig.decode(json: JSONSerialization.data(withJSONObject: document)).get()
        let live = Self.live(config)
        let ids = config.tabs.map(\.id)
        var generator = SplitMix64(seed: 5)
        var keys: Set<String> = []
        for device in 0..<40 {
            let context = RequestContext(platform: device % 3 == 0 ? "android" : "ios", deviceId: "device-\(device)")
            let outcome = live.targeting.evaluate(context, at: Date())
            keys.insert(outcome.key)
            let encoded = EncodedTabBar(live: live, locale: "en", outcome: outcome)
            #expect(encoded.defaultBody == CanonicalJSON.encode(
                config.resolve(client: "ios-phone", version: 3, locale: "en", saved: nil, outcome: outcome)))
            for _ in 0..<20 {
                let saved = Self.randomSaved(ids: ids, using: &generator)
                let expected = CanonicalJSON.encode(
                    config.resolve(client: "ios-phone", version: 3, locale: "en", saved: saved, outcome: outcome))
                #expect(encoded.userBody(saved) == expected, "\(outcome.key), \(saved)")
            }
        }
        #expect(keys.count >= 4, "\(keys)")
    }

    @Test("a replacement in the summary goes through the encoder and still matches")
    func replacedSummary() throws {
        let config = Self.variedConfig
        let saved = SavedCustomization.saved(Customization(order: ["profile", "books", "home"], hidden: []), revision: 4)
        let resolved = config.resolve(client: "ios-phone", version: 3, locale: "en", saved: saved)
        #expect(resolved.customization?.replaced == ["books": "library"])
        #expect(EncodedTabBar(live: Self.live(config), locale: "en", outcome: .everything).userBody(saved) == CanonicalJSON.encode(resolved))
    }
}

@Suite("Direct JSON of the saved tab order")
struct SavedTabOrderBodyJSONTests {
    @Test(
        "equals the encoder's bytes, plain or not",
        arguments: [
            SavedTabOrderBody(order: ["home", "search"], hidden: ["settings"], revision: 7, ignored: []),
            SavedTabOrderBody(order: [], hidden: [], revision: 0, ignored: ["gone", "x"]),
            SavedTabOrderBody(order: ["a\"b", "ü"], hidden: ["back\\slash"], revision: 1, ignored: ["/"]),
            SavedTabOrderBody(order: ["home", "tab\u{7}"], hidden: ["settings"], revision: .max, ignored: ["x"]),
            SavedTabOrderBody(order: ["home"], hidden: [], revision: 10, ignored: []),
        ]
    )
    func matchesEncoder(body: SavedTabOrderBody) {
        #expect(body.json == CanonicalJSON.encode(body))
    }

    @Test("integers are written as the encoder writes them", arguments: [0, 1, 9, 10, 99, 100, 1234567890, UInt64.max])
    func decimal(value: UInt64) {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        DirectJSON.appendDecimal(value, to: &bytes)
        bytes.append(UInt8(ascii: "]"))
        #expect(Data(bytes) == CanonicalJSON.encode([value]))
    }
}
