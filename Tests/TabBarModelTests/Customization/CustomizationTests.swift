import Foundation
import TabBarModel
import Testing

@Suite("Writing a customization")
struct CustomizationTests {
    typealias CheckResult = Result<(customization: Customization, ignored: [String]), TabOrderRejection>

    static func check(_ order: [String], hidden: [String] = [], config: TabBarConfig = .sample) -> CheckResult {
        config.check(TabOrderRequest(order: order, hidden: hidden))
    }

    static func problemPointers(_ result: CheckResult) -> [String] {
        if case .failure(.invalid(let problems)) = result {
            return problems.map(\.pointer)
        }
        return []
    }

    @Test func validRequestIsStored() throws {
        let (customization, ignored) = try Self.check(["search", "home", "library"], hidden: ["settings"]).get()
        #expect(customization == Customization(order: ["search", "home", "library"], hidden: ["settings"]))
        #expect(ignored == [])
    }

    @Test func duplicatesInOrderAreInvalid() {
        #expect(Self.problemPointers(Self.check(["home", "search", "home", "search"])) == ["/order/2", "/order/3"])
    }

    @Test func duplicatesInHiddenAreInvalid() {
        #expect(Self.problemPointers(Self.check(["home"], hidden: ["settings", "settings"])) == ["/hidden/1"])
    }

    @Test func hidingATabThatIsNotHideableIsInvalid() {
        #expect(
            Self.problemPointers(Self.check(["home"], hidden: ["downloads", "home", "search"])) == [
                "/hidden/1", "/hidden/2",
            ]
        )
    }

    @Test func unknownIDsAreIgnoredNotStored() throws {
        var config = TabBarConfig.sample
        config.tabs[4].deprecated = .hard
        let (customization, ignored) = try Self.check(
            ["home", "ghost", "search", "profile", "ghost2"],
            hidden: ["ghost", "settings", "zzz"],
            config: config
        ).get()
        #expect(customization == Customization(order: ["home", "search"], hidden: ["settings"]))
        #expect(ignored == ["ghost", "profile", "ghost2", "zzz"])
    }

    @Test func configNotCustomizableRefusesWrites() {
        var config = TabBarConfig.sample
        config.userCustomizable = false
        guard case .failure(.notCustomizable) = Self.check(["home"], config: config) else {
            Issue.record("expected notCustomizable")
            return
        }
    }

    @Test func tooManyIDsAreInvalid() {
        let ids = (0..<51).map { "t\($0)" }
        #expect(Self.problemPointers(Self.check(ids)) == ["/order"])
    }

    @Test func customizationDecodesWithoutHidden() throws {
        let decoded = try JSONDecoder().decode(Customization.self, from: Data(#"{"order": ["a"]}"#.utf8))
        #expect(decoded == Customization(order: ["a"]))
        let roundTrip = try JSONDecoder().decode(
            Customization.self,
            from: JSONEncoder().encode(Customization(order: ["b"], hidden: ["c"]))
        )
        #expect(roundTrip == Customization(order: ["b"], hidden: ["c"]))
    }
}

@Suite("Tab-order request decoding")
struct TabOrderRequestTests {
    static func decode(_ json: String) -> Result<TabOrderRequest, TabOrderDecodingError> {
        TabOrderRequest.decode(json: Data(json.utf8))
    }

    static func pointers(_ json: String) -> [String] {
        if case .failure(.invalid(let problems)) = decode(json) {
            return problems.map(\.pointer)
        }
        return []
    }

    @Test func decodesOrderAndHidden() throws {
        #expect(
            try Self.decode(#"{"order": ["a", "b"], "hidden": ["c"]}"#).get()
                == TabOrderRequest(order: ["a", "b"], hidden: ["c"])
        )
        #expect(try Self.decode(#"{"order": []}"#).get() == TabOrderRequest(order: []))
        #expect(try Self.decode(#"{"order": ["a"], "hidden": null}"#).get() == TabOrderRequest(order: ["a"]))
    }

    @Test func shapeProblemsHavePointers() {
        #expect(Self.pointers(#"{"order": ["a"], "extra": 1}"#) == ["/extra"])
        #expect(Self.pointers(#"{"hidden": []}"#) == ["/order"])
        #expect(Self.pointers(#"{"order": "a"}"#) == ["/order"])
        #expect(Self.pointers(#"{"order": ["a", 2, null]}"#) == ["/order/1", "/order/2"])
        #expect(Self.pointers(#"{"order": [], "hidden": {}}"#) == ["/hidden"])
        #expect(Self.pointers(#"[]"#) == [""])
    }

    @Test func limitsAreEnforced() {
        let many = (0..<51).map { "\"t\($0)\"" }.joined(separator: ",")
        #expect(Self.pointers("{\"order\": [\(many)]}") == ["/order"])
        #expect(Self.pointers("{\"order\": [], \"hidden\": [\(many)]}") == ["/hidden"])
        // The longest id is an open tab's, `<template>:<name>`: 64 + 1 + 64 characters.
        let longest = String(repeating: "a", count: 64) + ":" + String(repeating: "b", count: 64)
        #expect(Self.pointers("{\"order\": [\"ok\", \"\(longest)\"]}") == [])
        #expect(Self.pointers("{\"order\": [\"ok\", \"\(longest)b\"]}") == ["/order/1"])
    }

    @Test func malformedJSONIsNotInvalid() {
        guard case .failure(.malformedJSON(let message)) = Self.decode(#"{"order": [}"#) else {
            Issue.record("expected malformedJSON")
            return
        }
        #expect(message.contains("line 1"))
    }
}
