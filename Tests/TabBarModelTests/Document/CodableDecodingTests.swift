import Foundation
import TabBarModel
import Testing

@Suite("Decodable conformances go through the strict reader and the rules")
struct CodableDecodingTests {
    /// The problems `JSONDecoder` throws for `json`, or nil when it decodes.
    static func problems<T: Decodable>(_ type: T.Type, _ json: String) -> [ValidationProblem]? {
        do {
            _ = try JSONDecoder().decode(T.self, from: Data(json.utf8))
            return nil
        } catch ConfigDecodingError.invalid(let problems) {
            return problems
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func validConfigDecodes() throws {
        let data = Data(DecodingTests.designExample.utf8)
        #expect(try JSONDecoder().decode(TabBarConfig.self, from: data) == TabBarConfig.decode(json: data).get())
    }

    @Test func invalidConfigFailsWithEveryProblem() {
        let json = DecodingTests.document(tab: #", "badgee": "1""#, top: #", "maxVisibleTabs": 1, "defaultLocale": "english""#)
            .replacingOccurrences(of: #""id": "b""#, with: #""id": "B""#)
        let problems = Self.problems(TabBarConfig.self, json)
        #expect(problems?.map(\.pointer) == ["/tabs/0/badgee", "/tabs/1/id", "/maxVisibleTabs", "/defaultLocale"])
        #expect(problems == DecodingTests.problems(json))
        #expect(Self.problems(TabBarConfig.self, #"{"tabs": "home"}"#)?.map(\.pointer) == ["/tabs"])
    }

    @Test func pointersStartWhereTheConfigSits() {
        struct Envelope: Decodable {
            var config: TabBarConfig
        }
        let invalid = DecodingTests.document(top: #", "maxVisibleTabs": 11"#)
        #expect(Self.problems(Envelope.self, #"{"config": \#(invalid)}"#)?.map(\.pointer) == ["/config/maxVisibleTabs"])
        let list = "[\(DecodingTests.document()), \(invalid)]"
        #expect(Self.problems([TabBarConfig].self, list)?.map(\.pointer) == ["/1/maxVisibleTabs"])
    }

    @Test func partsAreCheckedOnTheirOwn() throws {
        let tab = #"{"id": "Home", "title": {"default": ""}, "destination": {"type": "url"}, "colour": 1}"#
        #expect(Self.problems(Tab.self, tab)?.map(\.pointer) == ["/colour", "/id", "/title/default", "/destination/url"])
        #expect(Self.problems(Destination.self, #"{"type": "url", "url": "not a url"}"#)?.map(\.pointer) == ["/url"])
        #expect(Self.problems(Appearance.self, #"{"tintColor": "blue"}"#)?.map(\.pointer) == ["/tintColor"])
        #expect(Self.problems(Icon.self, #"{"image": 3}"#)?.map(\.pointer) == ["/image"])
        #expect(Self.problems(LocalizedTitle.self, #"{"default": "A", "localized": {"x y": "B"}}"#)?.map(\.pointer) == ["/localized/x y"])
        let valid = #"{"id": "home", "title": {"default": "Home"}, "destination": {"type": "url", "url": "https://a.example"}}"#
        #expect(
            try JSONDecoder().decode(Tab.self, from: Data(valid.utf8))
                == Tab(id: "home", title: LocalizedTitle(default: "Home"), destination: Destination(type: .url, url: "https://a.example")))
    }

    @Test func unknownKeysCloseToAKnownOneGetASuggestion() {
        #expect(
            DecodingTests.problems(DecodingTests.document(top: #", "maxVisibletabs": 5"#)) == [
                ValidationProblem(pointer: "/maxVisibletabs", message: #"unknown field "maxVisibletabs", did you mean "maxVisibleTabs"?"#)
            ])
        #expect(
            DecodingTests.problems(DecodingTests.document(tab: #", "ID": "x""#)).first?.message
                == #"unknown field "ID", did you mean "id"?"#)
        #expect(
            DecodingTests.problems(DecodingTests.document(tab: #", "titel": {}"#)).first?.message
                == #"unknown field "titel", did you mean "title"?"#)
        #expect(DecodingTests.problems(DecodingTests.document(top: #", "colour": "red""#)).first?.message == #"unknown field "colour""#)
        guard case .failure(.invalid(let problems)) = TabOrderRequest.decode(json: Data(#"{"ordre": ["a"]}"#.utf8)) else {
            Issue.record("a misspelled order must be invalid")
            return
        }
        #expect(
            problems == [
                ValidationProblem(pointer: "/ordre", message: #"unknown field "ordre", did you mean "order"?"#),
                ValidationProblem(pointer: "/order", message: "is required"),
            ])
    }
}
