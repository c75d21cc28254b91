import Foundation
import TabBarModel
import Testing

/// One targeting rule: JSON spliced into a valid document and the pointers of the problems it must produce.
struct TargetingCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// Spliced into the first tab ("home").
    var home = ""
    /// Spliced into the child tab ("deals").
    var child = ""
    /// Spliced into the document's root.
    var top = ""
    let pointers: [String]
    /// False where a `Decoder`, which keeps no duplicate keys, cannot see the problem.
    var decoderSeesIt = true

    var testDescription: String { name }

    /// `top` with one experiment whose second variation is `variation`.
    static func variation(_ variation: String) -> String {
        #", "experiments": [{"key": "k", "variations": [{}, \#(variation)]}]"#
    }

    /// `home` with a `when` condition.
    static func when(_ condition: String) -> String {
        #", "when": \#(condition)"#
    }

    static let long = String(repeating: "x", count: 257)

    static let all: [TargetingCase] = rollouts + stagedRollouts + schedules + groups + experiments + variations
        + conditions + valueConditions

    /// `home` with a rollout whose members are `members`.
    static func rollout(_ members: String) -> String {
        #", "rollout": {\#(members)}"#
    }

    static let guardRule = #""guard": {"maxFailureRate": 0.02, "minOpens": 500}"#

    static let stagedRollouts: [TargetingCase] = [
        .init(name: "neither coverage nor stages", home: rollout(#""seed": "s""#), pointers: ["/tabs/0/rollout/coverage"]),
        .init(
            name: "coverage and stages", home: rollout(#""coverage": 0.5, "stages": [{"coverage": 1}], \#(guardRule)"#),
            pointers: ["/tabs/0/rollout/stages"]),
        .init(
            name: "a guard on one coverage", home: rollout(#""coverage": 0.5, \#(guardRule)"#),
            pointers: ["/tabs/0/rollout/guard"]),
        .init(name: "stages without a guard", home: rollout(#""stages": [{"coverage": 1}]"#), pointers: ["/tabs/0/rollout/guard"]),
        .init(name: "no stage", home: rollout(#""stages": [], \#(guardRule)"#), pointers: ["/tabs/0/rollout/stages"]),
        .init(
            name: "eleven stages",
            home: rollout(
                #""stages": [\#((1...10).map { #"{"coverage": 0.0\#($0 - 1)1, "hold": "PT1S"}"# }.joined(separator: ", ")), {"coverage": 1}], \#(guardRule)"#),
            pointers: ["/tabs/0/rollout/stages"]),
        .init(
            name: "coverages that do not rise",
            home: rollout(#""stages": [{"coverage": 0.5, "hold": "PT1H"}, {"coverage": 0.5}], \#(guardRule)"#),
            pointers: ["/tabs/0/rollout/stages/1/coverage"]),
        .init(
            name: "coverage 0 and above 1",
            home: rollout(#""stages": [{"coverage": 0, "hold": "PT1H"}, {"coverage": 1.5}], \#(guardRule)"#),
            pointers: ["/tabs/0/rollout/stages/0/coverage", "/tabs/0/rollout/stages/1/coverage"]),
        .init(
            name: "no hold, and a hold on the last",
            home: rollout(#""stages": [{"coverage": 0.1}, {"coverage": 1, "hold": "PT1H"}], \#(guardRule)"#),
            pointers: ["/tabs/0/rollout/stages/0/hold", "/tabs/0/rollout/stages/1/hold"]),
        .init(
            name: "holds that are no fixed duration or out of range",
            home: rollout(
                #""stages": [{"coverage": 0.1, "hold": "1 hour"}, {"coverage": 0.2, "hold": "P1M"}, {"coverage": 0.3, "hold": "PT0.5S"}, {"coverage": 0.4, "hold": "P367D"}, {"coverage": 1}], \#(guardRule)"#),
            pointers: (0...3).map { "/tabs/0/rollout/stages/\($0)/hold" }),
        .init(
            name: "a guard out of range",
            home: rollout(#""stages": [{"coverage": 1}], "guard": {"maxFailureRate": 1, "minOpens": 0}"#),
            pointers: ["/tabs/0/rollout/guard/maxFailureRate", "/tabs/0/rollout/guard/minOpens"]),
        .init(
            name: "a guard missing its members, with another",
            home: rollout(#""stages": [{"coverage": 1}], "guard": {"rate": 0.1}"#),
            pointers: ["/tabs/0/rollout/guard/rate", "/tabs/0/rollout/guard/maxFailureRate", "/tabs/0/rollout/guard/minOpens"]),
        .init(
            name: "a stage with another member, and minOpens not an integer",
            home: rollout(#""stages": [{"coverage": 1, "until": "x"}], "guard": {"maxFailureRate": 0.1, "minOpens": 1.5}"#),
            pointers: ["/tabs/0/rollout/stages/0/until", "/tabs/0/rollout/guard/minOpens"]),
    ]

    static let rollouts: [TargetingCase] = [
        .init(name: "coverage above 1", home: #", "rollout": {"coverage": 1.5}"#, pointers: ["/tabs/0/rollout/coverage"]),
        .init(name: "coverage below 0", home: #", "rollout": {"coverage": -0.1}"#, pointers: ["/tabs/0/rollout/coverage"]),
        .init(
            name: "child rollout", child: #", "rollout": {"coverage": 2}"#, pointers: ["/tabs/1/children/0/rollout/coverage"]),
        .init(name: "empty seed", home: #", "rollout": {"coverage": 1, "seed": ""}"#, pointers: ["/tabs/0/rollout/seed"]),
        .init(
            name: "long seed", home: #", "rollout": {"coverage": 1, "seed": "\#(long)"}"#,
            pointers: ["/tabs/0/rollout/seed"]),
        .init(
            name: "hash attribute",
            home: #", "rollout": {"coverage": 1, "hashAttribute": "country"}"#,
            pointers: ["/tabs/0/rollout/hashAttribute"]
        ),
        .init(
            name: "hash attribute with a bad custom name",
            home: #", "rollout": {"coverage": 1, "hashAttribute": "attr.1x"}"#,
            pointers: ["/tabs/0/rollout/hashAttribute"]
        ),
    ]

    static let schedules: [TargetingCase] = [
        .init(name: "date only", home: #", "startsAt": "2026-12-01""#, pointers: ["/tabs/0/startsAt"]),
        .init(name: "no offset", home: #", "endsAt": "2026-12-01T00:00:00""#, pointers: ["/tabs/0/endsAt"]),
        .init(name: "month 13", home: #", "startsAt": "2026-13-01T00:00:00Z""#, pointers: ["/tabs/0/startsAt"]),
        .init(
            name: "ends before it starts",
            home: #", "startsAt": "2026-12-01T09:00:00+01:00", "endsAt": "2026-12-01T07:59:59Z""#,
            pointers: ["/tabs/0/endsAt"]
        ),
        .init(
            name: "ends when it starts",
            home: #", "startsAt": "2026-12-01T09:00:00+01:00", "endsAt": "2026-12-01T08:00:00Z""#,
            pointers: ["/tabs/0/endsAt"]
        ),
        .init(
            name: "both malformed",
            home: #", "startsAt": "tomorrow", "endsAt": "2026-02-30T00:00:00Z""#,
            pointers: ["/tabs/0/startsAt", "/tabs/0/endsAt"]
        ),
    ]

    static let groups: [TargetingCase] = [
        .init(
            name: "101 groups",
            top: #", "groups": {\#((0..<101).map { #""g\#($0)": []"# }.joined(separator: ", "))}"#,
            pointers: ["/groups"]
        ),
        .init(name: "group name", top: #", "groups": {"-beta": [], "a/b": ["x"]}"#, pointers: ["/groups/-beta", "/groups/a~1b"]),
        .init(
            name: "10,001 values",
            top: #", "groups": {"big": [\#(Array(repeating: #""u""#, count: 10_001).joined(separator: ","))]}"#,
            pointers: ["/groups/big"]
        ),
        .init(
            name: "value length",
            top: #", "groups": {"beta": ["\#(long)", "", "ok", "ok"]}"#,
            pointers: ["/groups/beta/0", "/groups/beta/1"]
        ),
    ]

    static let experiments: [TargetingCase] = [
        .init(
            name: "21 experiments",
            top: #", "experiments": [\#((0..<21).map { #"{"key": "e\#($0)", "variations": [{}, {}]}"# }.joined(separator: ", "))]"#,
            pointers: ["/experiments"]
        ),
        .init(
            name: "key pattern",
            top: #", "experiments": [{"key": "bar layout", "variations": [{}, {}]}]"#,
            pointers: ["/experiments/0/key"]
        ),
        .init(
            name: "duplicate key",
            top: #", "experiments": [{"key": "k", "variations": [{}, {}]}, {"key": "k", "variations": [{}, {}]}]"#,
            pointers: ["/experiments/1/key"]
        ),
        .init(
            name: "coverage, seed and hash attribute",
            top: #", "experiments": [{"key": "k", "coverage": 2, "seed": "", "hashAttribute": "locale", "variations": [{}, {}]}]"#,
            pointers: ["/experiments/0/coverage", "/experiments/0/seed", "/experiments/0/hashAttribute"]
        ),
        .init(
            name: "one variation",
            top: #", "experiments": [{"key": "k", "variations": [{}]}]"#,
            pointers: ["/experiments/0/variations"]
        ),
        .init(
            name: "11 variations",
            top: #", "experiments": [{"key": "k", "variations": [\#(Array(repeating: "{}", count: 11).joined(separator: ", "))]}]"#,
            pointers: ["/experiments/0/variations"]
        ),
        .init(
            name: "weights for another number of variations",
            top: #", "experiments": [{"key": "k", "weights": [0.5, 0.25, 0.25], "variations": [{}, {}]}]"#,
            pointers: ["/experiments/0/weights"]
        ),
        .init(
            name: "weight outside 0…1",
            top: #", "experiments": [{"key": "k", "weights": [-0.5, 1.5], "variations": [{}, {}]}]"#,
            pointers: ["/experiments/0/weights/0", "/experiments/0/weights/1"]
        ),
        .init(
            name: "weights not summing to 1",
            top: #", "experiments": [{"key": "k", "weights": [0.5, 0.4], "variations": [{}, {}]}]"#,
            pointers: ["/experiments/0/weights"]
        ),
        .init(
            name: "experiment condition",
            top: #", "experiments": [{"key": "k", "when": {"appversion": "5"}, "variations": [{}, {}]}]"#,
            pointers: ["/experiments/0/when/appversion"]
        ),
    ]

    static let variations: [TargetingCase] = [
        .init(
            name: "order names an unknown tab",
            top: variation(#"{"order": ["home", "shopp", "zzz"]}"#),
            pointers: ["/experiments/0/variations/1/order/1", "/experiments/0/variations/1/order/2"]
        ),
        .init(
            name: "order names a child",
            top: variation(#"{"order": ["deals"]}"#),
            pointers: ["/experiments/0/variations/1/order/0"]
        ),
        .init(
            name: "order names a tab twice",
            top: variation(#"{"order": ["shop", "home", "shop"]}"#),
            pointers: ["/experiments/0/variations/1/order/2"]
        ),
        .init(
            name: "maxVisibleTabs",
            top: variation(#"{"maxVisibleTabs": 11}"#),
            pointers: ["/experiments/0/variations/1/maxVisibleTabs"]
        ),
        .init(
            name: "initialTab unknown, disabled, hard-deprecated, child",
            top: #", "experiments": [{"key": "k", "variations": [{"initialTab": "nope"}, {"initialTab": "news"}, "#
                + #"{"initialTab": "old"}, {"initialTab": "deals"}]}]"#,
            pointers: (0..<4).map { "/experiments/0/variations/\($0)/initialTab" }
        ),
        .init(
            name: "appearance",
            top: variation(#"{"appearance": {"tintColor": "red", "backgroundImage": "\#(long)"}}"#),
            pointers: [
                "/experiments/0/variations/1/appearance/backgroundImage",
                "/experiments/0/variations/1/appearance/tintColor",
            ]
        ),
    ]

    static let conditions: [TargetingCase] = [
        .init(name: "unknown condition operator", home: when(#"{"$xor": []}"#), pointers: ["/tabs/0/when/$xor"]),
        .init(name: "value operator on a condition", home: when(#"{"$in": ["ios"]}"#), pointers: ["/tabs/0/when/$in"]),
        .init(name: "$and of an object", home: when(#"{"$and": {"platform": "ios"}}"#), pointers: ["/tabs/0/when/$and"]),
        .init(
            name: "$or element not an object",
            home: when(#"{"$or": [{"platform": "ios"}, "android"]}"#),
            pointers: ["/tabs/0/when/$or/1"]
        ),
        .init(
            name: "unknown attribute",
            home: when(#"{"appversion": "5", "$nor": [{"platfrom": "ios"}], "$not": {"Country": "FR"}}"#),
            pointers: ["/tabs/0/when/appversion", "/tabs/0/when/$nor/0/platfrom", "/tabs/0/when/$not/Country"]
        ),
        .init(name: "bad custom attribute", home: when(#"{"attr.1x": "a"}"#), pointers: ["/tabs/0/when/attr.1x"]),
        .init(
            name: "operators mixed with fields",
            home: when(#"{"platform": {"$in": ["ios"], "os": "x"}}"#),
            pointers: ["/tabs/0/when/platform"]
        ),
        .init(
            name: "duplicate key",
            home: when(#"{"platform": "ios", "platform": "android"}"#),
            pointers: ["/tabs/0/when/platform"],
            decoderSeesIt: false
        ),
        .init(
            name: "1,001 values",
            home: when(#"{"platform": {"$in": [\#(Array(repeating: #""ios""#, count: 998).joined(separator: ","))]}}"#),
            pointers: ["/tabs/0/when"]
        ),
    ]

    static let valueConditions: [TargetingCase] = [
        .init(
            name: "unknown operator",
            home: when(#"{"platform": {"$foo": 1, "$regx": "a"}}"#),
            pointers: ["/tabs/0/when/platform/$foo", "/tabs/0/when/platform/$regx"]
        ),
        .init(
            name: "comparison with a boolean",
            home: when(#"{"country": {"$lt": true, "$gte": [1]}}"#),
            pointers: ["/tabs/0/when/country/$lt", "/tabs/0/when/country/$gte"]
        ),
        .init(
            name: "malformed versions",
            home: when(#"{"appVersion": {"$vgte": "5..2", "$vlt": "abc", "$veq": "", "$vne": 5}}"#),
            pointers: [
                "/tabs/0/when/appVersion/$vgte", "/tabs/0/when/appVersion/$vlt", "/tabs/0/when/appVersion/$veq",
                "/tabs/0/when/appVersion/$vne",
            ]
        ),
        .init(name: "$exists of a number", home: when(#"{"deviceId": {"$exists": 1}}"#), pointers: ["/tabs/0/when/deviceId/$exists"]),
        .init(
            name: "list operators without a list",
            home: when(#"{"platform": {"$in": "ios", "$nin": 1, "$ini": {}, "$nini": null, "$all": "a", "$alli": true}}"#),
            pointers: ["$in", "$nin", "$ini", "$nini", "$all", "$alli"].map { "/tabs/0/when/platform/\($0)" }
        ),
        .init(
            name: "unknown group",
            home: when(#"{"userId": {"$inGroup": "betas", "$notInGroup": 3}}"#),
            top: #", "groups": {"beta": ["u1"]}"#,
            pointers: ["/tabs/0/when/userId/$inGroup", "/tabs/0/when/userId/$notInGroup"]
        ),
        .init(name: "group without groups", home: when(#"{"userId": {"$inGroup": "beta"}}"#), pointers: ["/tabs/0/when/userId/$inGroup"]),
        .init(
            name: "$not of a value condition",
            home: when(#"{"appVersion": {"$not": {"$vgt": "x..y"}}}"#),
            pointers: ["/tabs/0/when/appVersion/$not/$vgt"]
        ),
        .init(
            name: "$size of a value condition",
            home: when(#"{"attr.list": {"$size": {"$gt": 1, "$foo": 2}}}"#),
            pointers: ["/tabs/0/when/attr.list/$size/$foo"]
        ),
        .init(name: "$elemMatch of a number", home: when(#"{"attr.list": {"$elemMatch": 3}}"#), pointers: ["/tabs/0/when/attr.list/$elemMatch"]),
        .init(
            name: "$elemMatch checks the grammar, not the attribute names",
            home: when(#"{"attr.list": {"$elemMatch": {"any/name": {"$regex": "("}, "$or": [{"x": {"$type": "int"}}]}}}"#),
            pointers: ["/tabs/0/when/attr.list/$elemMatch/any~1name/$regex", "/tabs/0/when/attr.list/$elemMatch/$or/0/x/$type"]
        ),
        .init(
            name: "regular expressions",
            home: when(#"{"locale": {"$regex": "[z-a]", "$regexi": "\#(String(repeating: "a", count: 1_025))"}}"#),
            pointers: ["/tabs/0/when/locale/$regex", "/tabs/0/when/locale/$regexi"]
        ),
        .init(name: "$type", home: when(#"{"locale": {"$type": "int"}}"#), pointers: ["/tabs/0/when/locale/$type"]),
    ]
}

@Suite("Targeting validation")
struct TargetingValidationTests {
    /// A valid document with top-level tabs home, shop (its child: deals), news (disabled) and old
    /// (hard-deprecated); `home` spliced into the first tab, `child` into deals and `top` into the root.
    static func document(home: String = "", child: String = "", top: String = "") -> String {
        """
        {"tabs": [
          {"id": "home", "title": {"default": "Home"}, "destination": {"type": "viewController", "name": "H"}\(home)},
          {"id": "shop", "title": {"default": "Shop"}, "destination": {"type": "url", "url": "https://shop.example"},
           "children": [{"id": "deals", "title": {"default": "Deals"}, "destination": {"type": "url", "url": "x:deals"}\(child)}]},
          {"id": "news", "title": {"default": "News"}, "destination": {"type": "url", "url": "x:news"}, "enabled": false},
          {"id": "old", "title": {"default": "Old"}, "destination": {"type": "url", "url": "x:old"}, "deprecated": "hard"}
        ]\(top)}
        """
    }

    static let everyField = document(
        home: #"""
            , "when": {"platform": {"$in": ["ios", "ipados"]}, "appVersion": {"$vgte": "5.2.0", "$vlt": "v6+1"},
              "attr.tier": "gold", "attr": {"tier": "gold"}, "locale": {"$regexi": "^FR", "$type": "string"},
              "$or": [{"country": {"$nin": ["DE"], "$exists": true}}, {"userId": {"$inGroup": "beta"}}],
              "$and": [{"osVersion": {"$not": {"$vlt": "17"}}}], "$nor": [{"language": null}],
              "$not": {"deviceId": {"$notInGroup": "staff"}},
              "attr.list": {"$size": {"$gt": 0}, "$all": ["a"], "$alli": ["A"], "$ini": ["a"], "$nini": ["b"],
                            "$elemMatch": {"name": {"$eq": "x"}, "$and": [{"tags": ["y"]}]}},
              "attr.n": {"$lt": 5, "$lte": "5", "$gt": 1, "$gte": 1, "$eq": {"any": 1}, "$ne": [1]},
              "attr.v": {"$veq": "5.2", "$vne": "5.2.0-beta.1", "$vgt": "1.2.3.4", "$vgte": "0", "$vlte": "9"}},
            "rollout": {"coverage": 0.3, "seed": "home-2026", "hashAttribute": "attr.tier"},
            "startsAt": "2026-12-01T09:00:00.5+01:00", "endsAt": "2026-12-27t00:00:00z"
            """#,
        child: #", "rollout": {"coverage": 1}, "startsAt": "2024-02-29T00:00:00Z""#,
        top: #"""
            , "groups": {"beta": ["u1", "u2", "u1"], "staff": [], "A.b_c-1": ["x"]},
            "experiments": [
              {"key": "bar-layout", "when": {"platform": "ios"}, "coverage": 0.5, "seed": "layout",
               "hashAttribute": "deviceId", "weights": [0.5, 0.25, 0.25],
               "variations": [{}, {"order": ["shop", "home", "old"], "maxVisibleTabs": 4, "initialTab": "shop",
                                   "appearance": {"tintColor": "#FF0000"}}, {"order": ["news"]}]},
              {"key": "Second_1", "weights": [0.1, 0.2, 0.3, 0.4], "variations": [{}, {}, {}, {"initialTab": "home"}]}
            ]
            """#
    )

    @Test(arguments: TargetingCase.all)
    func ruleProducesProblemsAtPointers(_ rule: TargetingCase) {
        let json = Self.document(home: rule.home, child: rule.child, top: rule.top)
        let problems = DecodingTests.problems(json)
        #expect(problems.map(\.pointer) == rule.pointers)
        guard rule.decoderSeesIt else { return }
        let decoded = CodableDecodingTests.problems(TabBarConfig.self, json) ?? []
        #expect(Set(decoded) == Set(problems))
    }

    @Test func documentWithEveryFieldIsValid() throws {
        #expect(DecodingTests.problems(Self.everyField) == [])
        let config = try TabBarConfig.decode(json: Data(Self.everyField.utf8)).get()
        #expect(config.tabs[0].rollout == Rollout(coverage: 0.3, seed: "home-2026", hashAttribute: "attr.tier"))
        #expect(config.tabs[0].startsAt == "2026-12-01T09:00:00.5+01:00")
        #expect(config.tabs[0].endsAt == "2026-12-27t00:00:00z")
        #expect(config.tabs[1].children?[0].rollout == Rollout(coverage: 1))
        #expect(config.groups == ["beta": ["u1", "u2", "u1"], "staff": [], "A.b_c-1": ["x"]])
        #expect(config.experiments?.map(\.key) == ["bar-layout", "Second_1"])
        #expect(config.experiments?[0].weights == [0.5, 0.25, 0.25])
        #expect(
            config.experiments?[0].variations[1]
                == Variation(
                    order: ["shop", "home", "old"], maxVisibleTabs: 4, initialTab: "shop",
                    appearance: Appearance(tintColor: "#FF0000")))
    }

    @Test func messagesSayWhatIsWrong() {
        func message(home: String = "", top: String = "") -> String? {
            DecodingTests.problems(Self.document(home: home, top: top)).first?.message
        }
        #expect(message(home: TargetingCase.when(#"{"appversion": "5"}"#)) == #"unknown attribute "appversion", did you mean "appVersion"?"#)
        #expect(message(home: TargetingCase.when(#"{"$adn": []}"#)) == #"unknown operator "$adn", did you mean "$and"?"#)
        #expect(message(home: TargetingCase.when(#"{"locale": {"$regx": "a"}}"#)) == #"unknown operator "$regx", did you mean "$regex"?"#)
        #expect(message(home: TargetingCase.when(#"{"locale": {"$regex": "(a"}}"#)) == "invalid regular expression: expected ')'")
        #expect(message(home: TargetingCase.when(#"{"appVersion": {"$vgte": "5..2"}}"#))?.hasPrefix(#"malformed version "5..2""#) == true)
        #expect(message(home: TargetingCase.when(#"{"platform": {"$in": [], "x": 1}}"#)) == #"mixes operators and fields ("$in" and "x")"#)
        #expect(
            message(home: TargetingCase.when(#"{"userId": {"$inGroup": "betas"}}"#), top: #", "groups": {"beta": []}"#)
                == #"names no group "betas", did you mean "beta"?"#)
        #expect(message(top: TargetingCase.variation(#"{"order": ["shopp"]}"#)) == #"names no top-level tab "shopp", did you mean "shop"?"#)
        #expect(message(top: TargetingCase.variation(#"{"order": ["deals"]}"#)) == #"names "deals", which is not a top-level tab"#)
        #expect(message(top: TargetingCase.variation(#"{"initialTab": "news"}"#)) == #"names "news", which is not enabled"#)
        #expect(message(top: TargetingCase.variation(#"{"maxVisibleTabs": 1}"#)) == "must be 2…10, found 1")
        #expect(
            message(top: #", "experiments": [{"key": "k", "weights": [0.5, 0.4], "variations": [{}, {}]}]"#)
                == "must sum to 1, sum to 0.9")
        #expect(
            message(top: #", "experiments": [{"key": "k", "variations": [{}, {}]}, {"key": "k", "variations": [{}, {}]}]"#)
                == #"duplicate experiment key "k", first used at /experiments/0/key"#)
        #expect(message(home: #", "rollout": {"coverage": 1.5}"#) == "must be 0…1, found 1.5")
        #expect(message(home: #", "startsAt": "2026-12-01T10:00:00Z", "endsAt": "2026-12-01T09:00:00Z""#) == "must be after startsAt (2026-12-01T10:00:00Z)")
        #expect(message(top: #", "groups": {"beta": [""]}"#) == "must be 1…256 characters, has 0")
    }

    @Test func stagedRolloutIsValidAndReadBack() throws {
        let staged = TargetingCase.rollout(
            #""seed": "shop-2026", "stages": [{"coverage": 0.01, "hold": "PT1H"}, {"coverage": 0.1, "hold": "P1DT0.5S"}, {"coverage": 0.5, "hold": "P2W"}, {"coverage": 1}], "guard": {"maxFailureRate": 0.02, "minOpens": 500}"#)
        let json = Self.document(home: staged)
        #expect(DecodingTests.problems(json) == [])
        let rollout = try #require(try TabBarConfig.decode(json: Data(json.utf8)).get().tabs[0].rollout)
        #expect(rollout.coverage == nil && rollout.startingCoverage == 0.01)
        #expect(rollout.stages?.map(\.coverage) == [0.01, 0.1, 0.5, 1])
        #expect(rollout.stages?.map(\.hold) == ["PT1H", "P1DT0.5S", "P2W", nil])
        #expect(rollout.guard == RolloutGuard(maxFailureRate: 0.02, minOpens: 500))
        let encoded = String(decoding: CanonicalJSON.encode(rollout), as: UTF8.self)
        #expect(encoded.contains(#""guard":{"maxFailureRate":0.02,"minOpens":500}"#) && !encoded.contains("coverage\":null"))
    }

    @Test("ISO 8601 durations of fixed length", arguments: [
        ("PT1S", 1.0), ("PT1H", 3_600), ("PT1H30M", 5_400), ("P1D", 86_400), ("P1DT12H", 129_600), ("P2W", 1_209_600),
        ("PT0.5S", 0.5), ("PT1,5S", 1.5), ("P0D", 0),
    ] as [(String, Double)])
    func durations(text: String, seconds: Double) {
        #expect(ISODuration.seconds(text) == seconds)
    }

    @Test("what is not a fixed-length ISO 8601 duration", arguments: [
        "", "P", "PT", "P1DT", "1H", "PT1", "P1M", "P1Y", "PT1H1D", "P1W2D", "PT1.5H", "PT1M1H", "P1DT1H1H", "pt1h",
        "PT-1S", "PT.5S", "PT1.S", "P 1D",
    ])
    func notDurations(text: String) {
        #expect(ISODuration.seconds(text) == nil)
    }

    @Test func boundsAreInclusive() {
        let exactly1000 = TargetingCase.when(
            #"{"platform": {"$in": [\#(Array(repeating: #""ios""#, count: 997).joined(separator: ","))]}}"#)
        let seed = String(repeating: "s", count: 256)
        let groups = (0..<100).map { #""g\#($0)": ["\#(seed)"]"# }.joined(separator: ", ")
        let experiments = (0..<20).map { #"{"key": "e\#($0)", "variations": [\#(Array(repeating: "{}", count: 10).joined(separator: ", "))]}"# }
        #expect(DecodingTests.problems(Self.document(home: exactly1000)) == [])
        #expect(
            DecodingTests.problems(
                Self.document(
                    home: #", "rollout": {"coverage": 0, "seed": "\#(seed)"}"#,
                    top: #", "groups": {\#(groups)}, "experiments": [\#(experiments.joined(separator: ", "))]"#)) == [])
        let thirds = #", "experiments": [{"key": "k", "weights": [0.3333333, 0.3333333, 0.3333334], "variations": [{}, {}, {}]}]"#
        #expect(DecodingTests.problems(Self.document(top: thirds)) == [])
        let offByMore = #", "experiments": [{"key": "k", "weights": [0.333333, 0.333333, 0.333333], "variations": [{}, {}, {}]}]"#
        #expect(DecodingTests.pointers(Self.document(top: offByMore)) == ["/experiments/0/weights"])
    }

    @Test func orderMayNameEveryTabOnceAndNoMore() {
        var config = TabBarConfig.make((0..<50).map { "t\($0)" })
        let ids = config.tabs.map(\.id)
        config.experiments = [Experiment(key: "k", variations: [Variation(), Variation(order: ids)])]
        #expect(config.validate() == [])
        config.experiments = [Experiment(key: "k", variations: [Variation(), Variation(order: ids + ["t0"])])]
        #expect(config.problemPointers == ["/experiments/0/variations/1/order", "/experiments/0/variations/1/order/50"])
    }

    @Test func everyProblemIsCollected() {
        let json = Self.document(
            home: #", "when": {"appversion": {"$vgte": "x"}}, "rollout": {"coverage": 2}, "startsAt": "soon""#,
            child: #", "rollout": {"coverage": 1, "hashAttribute": "email"}"#,
            top: #"""
                , "maxVisibleTabs": 1, "groups": {"": ["a"]},
                "experiments": [{"key": "k", "coverage": -1, "weights": [1], "variations": [{}, {"order": ["zzz"]}]},
                                {"key": "k", "variations": [{}]}]
                """#)
        #expect(
            DecodingTests.pointers(json) == [
                "/tabs/0/when/appversion", "/tabs/0/when/appversion/$vgte", "/tabs/0/rollout/coverage", "/tabs/0/startsAt",
                "/tabs/1/children/0/rollout/hashAttribute", "/maxVisibleTabs", "/groups/", "/experiments/0/coverage",
                "/experiments/0/weights", "/experiments/0/variations/1/order/0", "/experiments/1/variations",
                "/experiments/1/key",
            ])
    }

    @Test func typedDocumentsAreCheckedToo() {
        var config = TabBarConfig.make(["a", "b"])
        config.tabs[1].rollout = Rollout(coverage: 1.01, hashAttribute: "attr.")
        config.tabs[0].endsAt = "2026-12-01T00:00:00+01"
        config.groups = ["beta": Array(repeating: "u", count: 10_001)]
        config.experiments = [
            Experiment(key: "", coverage: 0.5, weights: [0.5, 0.5, 0], variations: [Variation(), Variation(initialTab: "c")])
        ]
        #expect(
            config.problemPointers == [
                "/tabs/0/endsAt", "/tabs/1/rollout/coverage", "/tabs/1/rollout/hashAttribute", "/groups/beta",
                "/experiments/0/key", "/experiments/0/weights", "/experiments/0/variations/1/initialTab",
            ])
    }
}
