import Foundation
import TabBarModel
import Testing

@Suite("Strict reading of the targeting fields")
struct TargetingDecodingTests {
    static func pointers(home: String = "", top: String = "") -> [String] {
        DecodingTests.pointers(TargetingValidationTests.document(home: home, top: top))
    }

    @Test func wrongTypesAndUnknownFieldsAreProblemsWithPointers() {
        #expect(Self.pointers(home: #", "when": "ios""#) == ["/tabs/0/when"])
        #expect(Self.pointers(home: #", "when": [{"platform": "ios"}]"#) == ["/tabs/0/when"])
        #expect(Self.pointers(home: #", "rollout": 0.5"#) == ["/tabs/0/rollout"])
        #expect(Self.pointers(home: #", "rollout": {}"#) == ["/tabs/0/rollout/coverage"])
        #expect(Self.pointers(home: #", "rollout": {"coverage": "0.5", "seed": 1, "hashAttribute": []}"#) == [
            "/tabs/0/rollout/coverage", "/tabs/0/rollout/seed", "/tabs/0/rollout/hashAttribute",
        ])
        #expect(Self.pointers(home: #", "rollout": {"coverage": 1, "hash": "userId"}"#) == ["/tabs/0/rollout/hash"])
        #expect(Self.pointers(home: #", "startsAt": 1, "endsAt": true"#) == ["/tabs/0/startsAt", "/tabs/0/endsAt"])
        #expect(Self.pointers(top: #", "groups": ["beta"]"#) == ["/groups"])
        #expect(Self.pointers(top: #", "groups": {"a": "u1", "b": null, "c": ["u1", 2]}"#) == ["/groups/a", "/groups/b", "/groups/c/1"])
        #expect(Self.pointers(top: #", "experiments": {}"#) == ["/experiments"])
        #expect(Self.pointers(top: #", "experiments": [3, null]"#) == ["/experiments/0", "/experiments/1"])
        #expect(
            Self.pointers(top: #", "experiments": [{"key": 1, "when": 2, "coverage": "all", "seed": 3, "hashAttribute": 4, "weights": {}, "variations": {}}]"#)
                == (["key", "when", "coverage", "seed", "hashAttribute", "weights", "variations"]).map { "/experiments/0/\($0)" })
        #expect(Self.pointers(top: #", "experiments": [{"key": "k", "weights": [0.5, "0.5"], "variations": [{}, {}]}]"#) == ["/experiments/0/weights/1"])
        #expect(
            Self.pointers(top: #", "experiments": [{"key": "k", "variations": [{}, 3, {"order": "home"}, {"order": ["home", 1]}]}]"#) == [
                "/experiments/0/variations/1", "/experiments/0/variations/2/order", "/experiments/0/variations/3/order/1",
            ])
        #expect(
            Self.pointers(top: #", "experiments": [{"key": "k", "variations": [{"maxVisibleTabs": 4.5, "initialTab": 1, "appearance": []}, {}]}]"#) == [
                "/experiments/0/variations/0/maxVisibleTabs", "/experiments/0/variations/0/initialTab",
                "/experiments/0/variations/0/appearance",
            ])
    }

    @Test func requiredMembers() {
        #expect(Self.pointers(top: #", "experiments": [{"variations": [{}, {}]}]"#) == ["/experiments/0/key"])
        #expect(Self.pointers(top: #", "experiments": [{"key": "k"}]"#) == ["/experiments/0/variations"])
        #expect(Self.pointers(top: #", "experiments": [{"key": "k", "variations": null}]"#) == ["/experiments/0/variations"])
    }

    @Test func misspelledKeysGetASuggestion() {
        let problems = DecodingTests.problems(
            TargetingValidationTests.document(
                home: #", "whenn": {}, "rollout": {"coverage": 1, "hashAtribute": "userId"}"#,
                top: #", "experiments": [{"key": "k", "variation": [], "variations": [{}, {"ordre": []}]}], "group": {}"#
            ))
        #expect(
            problems.map(\.message) == [
                #"unknown field "group", did you mean "groups"?"#,
                #"unknown field "whenn", did you mean "when"?"#,
                #"unknown field "hashAtribute", did you mean "hashAttribute"?"#,
                #"unknown field "variation", did you mean "variations"?"#,
                #"unknown field "ordre", did you mean "order"?"#,
            ])
    }

    @Test func unreadableValuesCauseNoFollowUpProblems() {
        #expect(Self.pointers(top: #", "experiments": [{"variations": [{}, {}]}, {"variations": [{}, {}]}]"#) == [
            "/experiments/0/key", "/experiments/1/key",
        ])
        #expect(Self.pointers(top: #", "experiments": [{"key": "k", "weights": [0.5, 0.5], "variations": "two"}]"#) == [
            "/experiments/0/variations"
        ])
        #expect(Self.pointers(top: #", "experiments": [{"key": "k", "weights": ["a", 0.5], "variations": [{}, {}]}]"#) == [
            "/experiments/0/weights/0"
        ])
        #expect(
            Self.pointers(home: #", "when": {"userId": {"$inGroup": "beta"}}"#, top: #", "groups": 3"#) == ["/groups"])
        #expect(
            Self.pointers(home: #", "when": {"userId": {"$inGroup": "beta"}}"#, top: #", "groups": {"beta": 3}"#) == ["/groups/beta"])
        let unreadableTab = TargetingValidationTests.document(top: #", "experiments": [{"key": "k", "variations": [{}, {"order": ["home", "x"]}]}]"#)
            .replacingOccurrences(of: #""id": "shop""#, with: #""id": 7"#)
        #expect(DecodingTests.pointers(unreadableTab) == ["/tabs/1/id"])
    }

    @Test func jsonDecoderGivesTheSameValuesAndProblems() throws {
        let data = Data(TargetingValidationTests.everyField.utf8)
        #expect(try JSONDecoder().decode(TabBarConfig.self, from: data) == TabBarConfig.decode(json: data).get())
        let invalid = TargetingValidationTests.document(
            home: #", "when": {"appVersion": {"$vgte": "5..2"}}, "rollout": {"coverage": 2, "sed": "x"}"#,
            top: #", "experiments": [{"key": "k", "weights": [1], "variations": [{}, {"order": ["zzz"]}]}]"#)
        let problems = DecodingTests.problems(invalid)
        #expect(problems.count == 5)
        #expect(Set(CodableDecodingTests.problems(TabBarConfig.self, invalid) ?? []) == Set(problems))
    }

    @Test func roundTripGivesAnEqualConfig() throws {
        let config = try TabBarConfig.decode(json: Data(TargetingValidationTests.everyField.utf8)).get()
        let encoded = config.encoded()
        #expect(try TabBarConfig.decode(json: encoded).get() == config)
        #expect(try JSONDecoder().decode(TabBarConfig.self, from: encoded) == config)
    }

    @Test func partsDecodeOnTheirOwn() throws {
        typealias Problems = CodableDecodingTests
        #expect(Problems.problems(Rollout.self, #"{"coverage": 2, "hashAttribute": "email"}"#)?.map(\.pointer) == ["/coverage", "/hashAttribute"])
        #expect(Problems.problems(Rollout.self, #"{"seed": "s"}"#)?.map(\.pointer) == ["/coverage"])
        #expect(try JSONDecoder().decode(Rollout.self, from: Data(#"{"coverage": 1}"#.utf8)) == Rollout(coverage: 1))
        let experiment = #"{"key": "k", "when": {"userId": {"$inGroup": "any"}}, "variations": [{}, {"order": ["any"], "initialTab": "any"}]}"#
        #expect(try JSONDecoder().decode(Experiment.self, from: Data(experiment.utf8)).variations[1].order == ["any"])
        #expect(Problems.problems(Experiment.self, #"{"key": "k k", "variations": [{}]}"#)?.map(\.pointer) == ["/key", "/variations"])
        #expect(Problems.problems(Variation.self, #"{"order": ["a", "a"], "maxVisibleTabs": 1}"#)?.map(\.pointer) == ["/order/1", "/maxVisibleTabs"])
        #expect(Problems.problems(Condition.self, #""ios""#)?.map(\.pointer) == [""])
        #expect(Problems.problems(Condition.self, #"{"platfrom": "ios", "country": {"$in": "FR"}}"#)?.map(\.pointer) == ["/country/$in", "/platfrom"])
        struct Envelope: Decodable {
            var rules: [Condition]
        }
        #expect(Problems.problems(Envelope.self, #"{"rules": [{}, {"$or": 1}]}"#)?.map(\.pointer) == ["/rules/1/$or"])
    }

    @Test func conditionsCompareAsJSON() throws {
        func condition(_ json: String) throws -> Condition {
            try JSONDecoder().decode(Condition.self, from: Data(json.utf8))
        }
        let written = TargetingValidationTests.document(home: #", "when": {"platform": "ios", "attr.n": {"$gte": 1.0}}"#)
        let when = try TabBarConfig.decode(json: Data(written.utf8)).get().tabs[0].when
        let sorted = try condition(#"{"attr.n": {"$gte": 1}, "platform": "ios"}"#)
        let other = try condition(#"{"attr.n": {"$gte": 1.5}, "platform": "ios"}"#)
        #expect(when == sorted)
        #expect(when != other)
        #expect(Set([when, sorted, other]).count == 2)
        let list = try condition(#"{"attr.a": [1, 2]}"#)
        #expect(list == (try condition(#"{"attr.a": [1.0, 2.0]}"#)))
        #expect(list != (try condition(#"{"attr.a": [2, 1]}"#)))
    }
}
