import Foundation
import TabBarModel
import Testing

@Suite("Strict config decoding")
struct DecodingTests {
    static let designExample = """
        {
          "tabs": [
            {
              "id": "home",
              "title": { "key": "HOME_TAB", "default": "Home", "localized": { "fr": "Accueil", "de-CH": "Start" } },
              "icon": { "image": "tabbar_home.png", "selectedImage": "tabbar_home_selected.png" },
              "destination": { "type": "viewController", "name": "HomeViewController", "embedInNavigationController": true },
              "badge": null, "enabled": true, "locked": true, "hideable": false,
              "children": []
            },
            { "id": "search", "title": { "default": "Search" }, "icon": { "image": "tabbar_search.png" },
              "destination": { "type": "storyboard", "name": "SearchStoryboard" } },
            { "id": "web", "title": { "default": "News" }, "icon": { "image": "news.png" },
              "destination": { "type": "url", "url": "https://example.com/news", "parameters": { "source": "tab" } },
              "deprecated": "soft" },
            { "id": "feed", "title": { "default": "Feed" }, "icon": { "image": "feed.png" },
              "destination": { "type": "url", "url": "https://example.com/feed" }, "replaces": "web" }
          ],
          "maxVisibleTabs": 5,
          "initialTab": "home",
          "userCustomizable": true,
          "defaultLocale": "en",
          "appearance": { "backgroundImage": "tab_background.png", "tintColor": "#0A84FF",
                          "selectedTintColor": "#34C759", "unselectedTintColor": "#8E8E93" }
        }
        """

    /// A valid two-tab document with `extra` spliced into the first tab and `top` into the root.
    static func document(tab extra: String = "", top: String = "") -> String {
        """
        {"tabs": [
          {"id": "a", "title": {"default": "A"}, "destination": {"type": "viewController", "name": "A"}\(extra)},
          {"id": "b", "title": {"default": "B"}, "destination": {"type": "storyboard", "name": "B"}}
        ]\(top)}
        """
    }

    static func problems(_ json: String) -> [ValidationProblem] {
        switch TabBarConfig.decode(json: Data(json.utf8)) {
        case .success:
            return []
        case .failure(.invalid(let problems)):
            return problems
        case .failure(.malformedJSON(let message)):
            Issue.record("unexpected malformedJSON: \(message)")
            return []
        }
    }

    static func pointers(_ json: String) -> [String] {
        problems(json).map(\.pointer)
    }

    static func malformedMessage(_ json: String) -> String? {
        if case .failure(.malformedJSON(let message)) = TabBarConfig.decode(json: Data(json.utf8)) {
            return message
        }
        return nil
    }

    @Test func decodesTheDesignExample() throws {
        let config = try TabBarConfig.decode(json: Data(Self.designExample.utf8)).get()
        #expect(config.tabs.map(\.id) == ["home", "search", "web", "feed"])
        #expect(config.tabs[0].title.localized == ["fr": "Accueil", "de-CH": "Start"])
        #expect(config.tabs[0].badge == nil)
        #expect(config.tabs[0].children == [])
        #expect(config.tabs[2].deprecated == .soft)
        #expect(config.tabs[3].replaces == "web")
        #expect(config.appearance?.backgroundImage == "tab_background.png")
    }

    @Test func minimalDocumentDecodes() throws {
        let config = try TabBarConfig.decode(json: Data(Self.document().utf8)).get()
        #expect(
            config
                == TabBarConfig(tabs: [
                    Tab(
                        id: "a",
                        title: LocalizedTitle(default: "A"),
                        destination: Destination(type: .viewController, name: "A")
                    ),
                    Tab(
                        id: "b",
                        title: LocalizedTitle(default: "B"),
                        destination: Destination(type: .storyboard, name: "B")
                    ),
                ])
        )
    }

    @Test func unknownFieldsAreProblemsWithPointers() {
        #expect(Self.pointers(Self.document(top: #", "colour": "red""#)) == ["/colour"])
        #expect(Self.pointers(Self.document(tab: #", "titel": {}"#)) == ["/tabs/0/titel"])
        #expect(Self.pointers(Self.document(tab: #", "icon": {"image": "x", "size": 3}"#)) == ["/tabs/0/icon/size"])
        #expect(Self.pointers(Self.document(top: #", "a/b~c": 1"#)) == ["/a~1b~0c"])
        let problem = Self.problems(Self.document(top: #", "colour": "red""#)).first
        #expect(problem?.message.contains("colour") == true)
    }

    @Test func misspelledRequiredFieldReportsBoth() {
        let json = """
            {"tabs": [
              {"id": "a", "title": {"default": "A"}, "destination": {"type": "viewController", "nmae": "A"}},
              {"id": "b", "title": {"default": "B"}, "destination": {"type": "storyboard", "name": "B"}}
            ]}
            """
        #expect(Self.pointers(json) == ["/tabs/0/destination/nmae", "/tabs/0/destination/name"])
    }

    @Test func wrongTypesAreProblemsNotCrashes() {
        #expect(Self.pointers(#"{"tabs": "home"}"#) == ["/tabs"])
        #expect(Self.pointers(#"[1, 2]"#) == [""])
        #expect(Self.pointers(#""tabs""#) == [""])
        #expect(Self.pointers(Self.document(top: #", "maxVisibleTabs": "5""#)) == ["/maxVisibleTabs"])
        #expect(Self.pointers(Self.document(top: #", "maxVisibleTabs": 4.5"#)) == ["/maxVisibleTabs"])
        #expect(Self.pointers(Self.document(top: #", "userCustomizable": 1"#)) == ["/userCustomizable"])
        #expect(Self.pointers(Self.document(top: #", "appearance": []"#)) == ["/appearance"])
        #expect(Self.pointers(Self.document(tab: #", "enabled": "yes""#)) == ["/tabs/0/enabled"])
        #expect(Self.pointers(Self.document(tab: #", "children": {}"#)) == ["/tabs/0/children"])
        #expect(Self.pointers(Self.document(tab: #", "deprecated": "maybe""#)) == ["/tabs/0/deprecated"])
        #expect(Self.pointers(Self.document(tab: #", "icon": "home.png""#)) == ["/tabs/0/icon"])
        #expect(Self.pointers(Self.document(tab: #", "children": [7]"#)) == ["/tabs/0/children/0"])
        let title = #"{"tabs": [{"id": "a", "title": "A", "destination": {"type": "url", "url": "x:y"}}, 3]}"#
        #expect(Self.pointers(title) == ["/tabs/0/title", "/tabs/1"])
        let localized = Self.document(tab: #", "badge": 3"#).replacingOccurrences(
            of: #"{"default": "A"}"#,
            with: #"{"default": "A", "localized": {"fr": 1, "de": null}}"#
        )
        #expect(
            Self.pointers(localized) == ["/tabs/0/title/localized/de", "/tabs/0/title/localized/fr", "/tabs/0/badge"]
        )
    }

    @Test func badDestinationTypeIsReportedOnce() {
        let json = Self.document().replacingOccurrences(of: #""type": "viewController""#, with: #""type": "web""#)
        #expect(Self.pointers(json) == ["/tabs/0/destination/type"])
        let missing = Self.document().replacingOccurrences(of: #""type": "viewController", "#, with: "")
        #expect(Self.pointers(missing) == ["/tabs/0/destination/type"])
    }

    @Test func missingRequiredFieldsAreReportedOnce() {
        let noID = Self.document().replacingOccurrences(of: #""id": "a", "#, with: "")
        #expect(Self.pointers(noID) == ["/tabs/0/id"])
        let nullID = Self.document().replacingOccurrences(of: #""id": "a""#, with: #""id": null"#)
        #expect(Self.pointers(nullID) == ["/tabs/0/id"])
        let noDefault = Self.document().replacingOccurrences(of: #"{"default": "A"}"#, with: "{}")
        #expect(Self.pointers(noDefault) == ["/tabs/0/title/default"])
        #expect(Self.pointers("{}") == ["/tabs"])
    }

    @Test func unreadableTabsDoNotCauseFollowUpProblems() {
        let json =
            #"{"tabs": [{"id": 1, "title": {"default": "A"}, "destination": {"type": "url", "url": "x:y"}}, "#
            + #"{"id": "b", "title": {"default": "B"}, "destination": {"type": "url", "url": "x:y"}}], "initialTab": "a"}"#
        #expect(Self.pointers(json) == ["/tabs/0/id"])
    }

    @Test func structuralAndSemanticProblemsAreAllListed() {
        let json = Self.document(tab: #", "badgee": "1""#, top: #", "maxVisibleTabs": 1, "defaultLocale": "english""#)
            .replacingOccurrences(of: #""id": "b""#, with: #""id": "B""#)
        #expect(Self.pointers(json) == ["/tabs/0/badgee", "/tabs/1/id", "/maxVisibleTabs", "/defaultLocale"])
    }

    @Test func duplicateKeysAreProblems() {
        #expect(Self.pointers(Self.document(tab: #", "id": "z""#)) == ["/tabs/0/id"])
    }

    @Test func malformedJSONSaysWhere() throws {
        let trailingComma = try #require(Self.malformedMessage("{\n  \"tabs\": [1,]\n}"))
        #expect(trailingComma.contains("line 2, column 14"))
        #expect(Self.malformedMessage("") != nil)
        #expect(Self.malformedMessage("{\"tabs\": [}") != nil)
        #expect(Self.malformedMessage("{\"tabs\": tru}") != nil)
        #expect(Self.malformedMessage("{} {}") != nil)
        #expect(Self.malformedMessage("{\"a\": \"\\x\"}") != nil)
        #expect(Self.malformedMessage("{\"a\": 01}") != nil)
        #expect(Self.malformedMessage("{\"a\": \"\u{1}\"}") != nil)
        #expect(Self.malformedMessage("{'a': 1}") != nil)
        #expect(Self.malformedMessage(String(repeating: "[", count: 100_000)) != nil)
        if case .failure(.malformedJSON) = TabBarConfig.decode(json: Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])) {
        } else {
            Issue.record("invalid UTF-8 must be malformed JSON")
        }
    }

    @Test func stringEscapesAreDecoded() throws {
        let json = Self.document().replacingOccurrences(
            of: #""default": "A""#,
            with: #""default": "\u00c9t\u00e9 \ud83d\ude00 \"q\" \/""#
        )
        let config = try TabBarConfig.decode(json: Data(json.utf8)).get()
        #expect(config.tabs[0].title.default == "Été 😀 \"q\" /")
        let lone = Self.document().replacingOccurrences(of: #""default": "A""#, with: #""default": "\ud83d""#)
        #expect(Self.malformedMessage(lone) != nil)
    }
}
