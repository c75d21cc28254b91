import Foundation
import TestSupport
import Testing

@testable import TabBarModel

/// Targeting on typed documents: who gets which tabs and variation, the layout that results, and why (explain).
@Suite("Targeting: rollouts, experiments, conditions, windows")
struct TargetingTests {
    static func condition(_ json: String) -> Condition {
        do {
            return Condition(json: try JSONParser.parse(Data(json.utf8)))
        } catch {
            preconditionFailure("test condition does not parse: \(error)")
        }
    }

    static func tab(_ id: String, when: String? = nil, rollout: Rollout? = nil, startsAt: String? = nil,
                    endsAt: String? = nil, children: [Tab]? = nil) -> Tab {
        var tab = Tab.make(id, children: children)
        tab.when = when.map(condition)
        tab.rollout = rollout
        tab.startsAt = startsAt
        tab.endsAt = endsAt
        return tab
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func outcome(_ config: TabBarConfig, _ context: RequestContext, at date: Date = now) -> TargetingOutcome {
        TargetingPlan(config: config).evaluate(context, at: date)
    }

    static func ids(_ config: TabBarConfig, _ context: RequestContext, saved: SavedCustomization? = nil) -> [String] {
        config.resolve(client: "c", version: 1, locale: "en", saved: saved, outcome: outcome(config, context))
            .tabs.map(\.id)
    }

    // MARK: - Rollouts

    @Test("a 30 % rollout over 10,000 users gives the tab to 30 % ± 1.5 %; at 50 % everyone who had it keeps it")
    func rolloutDistribution() {
        let users = (0..<10_000).map { "user-\($0)" }
        func holders(_ coverage: Double) -> Set<String> {
            let config = TabBarConfig(tabs: [
                Tab.make("home"), Self.tab("shop", rollout: Rollout(coverage: coverage, seed: "shop-2026")),
            ])
            let plan = TargetingPlan(config: config)
            return Set(users.filter { !plan.evaluate(RequestContext(userId: $0), at: Self.now).absentIDs.contains("shop") })
        }
        let at30 = holders(0.3)
        let at50 = holders(0.5)
        #expect((2850...3150).contains(at30.count), "\(at30.count) of 10,000")
        #expect((4850...5150).contains(at50.count), "\(at50.count) of 10,000")
        #expect(at30.isSubset(of: at50))
        #expect(holders(0).isEmpty)
        #expect(holders(1).count == users.count)
    }

    @Test("a rollout hashes the attribute it names; without a value the tab is absent")
    func rolloutAttribute() {
        let byDevice = TabBarConfig(tabs: [
            Tab.make("home"), Self.tab("shop", rollout: Rollout(coverage: 1, hashAttribute: "deviceId")),
        ])
        #expect(Self.ids(byDevice, RequestContext(deviceId: "d1")) == ["home", "shop"])
        #expect(Self.ids(byDevice, RequestContext(userId: "u1")) == ["home"])
        let byTier = TabBarConfig(tabs: [
            Tab.make("home"), Self.tab("shop", rollout: Rollout(coverage: 1, hashAttribute: "attr.tier")),
        ])
        #expect(Self.ids(byTier, RequestContext(custom: ["tier": "gold"])) == ["home", "shop"])
        #expect(Self.ids(byTier, RequestContext(custom: ["tier": ""])) == ["home"])
    }

    @Test("the bucket is GrowthBook's hash v2 of seed and value, the seed defaulting to the tab id")
    func rolloutBucket() throws {
        let plan = TargetingPlan(config: TabBarConfig(tabs: [Tab.make("home"), Self.tab("shop", rollout: Rollout(coverage: 0.5))]))
        let entry = try #require(plan.entries.first { $0.id == "shop" })
        let bucket = try #require(plan.bucket(of: entry, context: RequestContext(userId: "u7")))
        #expect(bucket == Bucketing.hash(seed: "shop", value: "u7", version: 2))
    }

    // MARK: - Experiments

    @Test("a 50/50 experiment over 10,000 users puts 50 % ± 1.5 % in each variation, the same one every time")
    func experimentSplit() {
        let config = TabBarConfig(
            tabs: ["home", "search", "shop"].map { Tab.make($0) },
            experiments: [
                Experiment(
                    key: "bar-order", weights: [0.5, 0.5],
                    variations: [Variation(), Variation(order: ["shop", "home"])])
            ])
        let plan = TargetingPlan(config: config)
        var counts = [0, 0]
        for index in 0..<10_000 {
            let context = RequestContext(userId: "user-\(index)")
            let first = plan.evaluate(context, at: Self.now)
            let again = plan.evaluate(context, at: Self.now)
            guard let variation = first.experiment?.variation else {
                Issue.record("user-\(index) is in no variation")
                continue
            }
            #expect(again == first)
            counts[variation] += 1
        }
        #expect((4850...5150).contains(counts[0]), "\(counts)")
        #expect((4850...5150).contains(counts[1]), "\(counts)")
    }

    @Test("the first experiment whose condition holds and whose coverage includes the request applies, and only it")
    func firstExperimentApplies() {
        let config = TabBarConfig(
            tabs: ["home", "search", "shop"].map { Tab.make($0) },
            experiments: [
                Experiment(key: "android-only", when: Self.condition(#"{"platform":"android"}"#), variations: [Variation(), Variation()]),
                Experiment(key: "nobody", coverage: 0, variations: [Variation(), Variation()]),
                Experiment(key: "everyone", weights: [0, 1], variations: [Variation(), Variation(maxVisibleTabs: 2)]),
            ])
        let ios = Self.outcome(config, RequestContext(platform: "ios", userId: "u1"))
        #expect(ios.experiment == ExperimentAssignment(key: "everyone", variation: 1))
        let android = Self.outcome(config, RequestContext(platform: "android", userId: "u1"))
        #expect(android.experiment?.key == "android-only")
        #expect(Self.outcome(config, RequestContext(platform: "ios")).experiment == nil)
        let resolved = config.resolve(client: "c", version: 1, locale: "en", saved: nil, outcome: ios)
        #expect(resolved.experiment == ExperimentAssignment(key: "everyone", variation: 1))
        #expect(resolved.maxVisibleTabs == 2)
    }

    @Test("a variation sets the default order (unlisted tabs follow), maxVisibleTabs, initialTab and appearance")
    func variationLayout() {
        let config = TabBarConfig(
            tabs: ["home", "search", "shop", "profile"].map { Tab.make($0) },
            initialTab: "home",
            appearance: Appearance(tintColor: "#000000"),
            experiments: [
                Experiment(
                    key: "layout", weights: [0, 1],
                    variations: [
                        Variation(),
                        Variation(
                            order: ["shop", "profile"], maxVisibleTabs: 3, initialTab: "shop",
                            appearance: Appearance(tintColor: "#FFFFFF")),
                    ])
            ])
        let resolved = config.resolve(
            client: "c", version: 1, locale: "en", saved: nil,
            outcome: Self.outcome(config, RequestContext(userId: "u1")))
        #expect(resolved.tabs.map(\.id) == ["shop", "profile", "home", "search"])
        #expect(resolved.tabs.map(\.placement) == [.bar, .bar, .more, .more])
        #expect(resolved.initialTab == "shop")
        #expect(resolved.appearance?.tintColor == "#FFFFFF")
    }

    // MARK: - Conditions and versions

    @Test(
        "app versions compare as GrowthBook's $v operators do",
        arguments: [
            ("5.2.0", #"{"$vgte":"5.2.0"}"#, true), ("5.1.9", #"{"$vgte":"5.2.0"}"#, false),
            ("5.10.0", #"{"$vgt":"5.9.9"}"#, true), ("5.2.0-beta.1", #"{"$vlt":"5.2.0"}"#, true),
            ("5.2.0+42", #"{"$veq":"5.2.0"}"#, true), ("v5.2.0", #"{"$veq":"5.2.0"}"#, true),
            ("5.2", #"{"$vlt":"5.2.0"}"#, true), ("5.2", #"{"$veq":"5.2.0"}"#, false),
        ])
    func versions(appVersion: String, condition: String, holds: Bool) {
        let config = TabBarConfig(tabs: [Tab.make("home"), Self.tab("shop", when: #"{"appVersion":\#(condition)}"#)])
        #expect(Self.ids(config, RequestContext(appVersion: appVersion)).contains("shop") == holds)
    }

    @Test("a tab for iOS 5.2 and later: absent on 5.1.9, on Android and without a version")
    func versionAndPlatform() {
        let config = TabBarConfig(tabs: [
            Tab.make("home"),
            Self.tab("shop", when: #"{"appVersion":{"$vgte":"5.2.0"},"platform":{"$in":["ios","ipados"]}}"#),
        ])
        #expect(Self.ids(config, RequestContext(platform: "ios", appVersion: "5.2.0")) == ["home", "shop"])
        #expect(Self.ids(config, RequestContext(platform: "ios", appVersion: "5.1.9")) == ["home"])
        #expect(Self.ids(config, RequestContext(platform: "android", appVersion: "6.0")) == ["home"])
        #expect(Self.ids(config, RequestContext(platform: "ios")) == ["home"])
    }

    @Test("custom attributes, groups and the locale are attributes too")
    func attributes() {
        let config = TabBarConfig(
            tabs: [
                Tab.make("home"), Self.tab("gold", when: #"{"attr.tier":"gold"}"#),
                Self.tab("beta", when: #"{"userId":{"$inGroup":"testers"}}"#),
                Self.tab("french", when: #"{"language":"fr"}"#),
            ],
            groups: ["testers": ["ann", "bob"]])
        #expect(Self.ids(config, RequestContext(custom: ["tier": "gold"])) == ["home", "gold"])
        #expect(Self.ids(config, RequestContext(userId: "bob")) == ["home", "beta"])
        #expect(Self.ids(config, RequestContext(locale: "fr-CA")) == ["home", "french"])
    }

    @Test("a child tab has its own condition; a parent's absence takes its children with it")
    func children() {
        let config = TabBarConfig(tabs: [
            Self.tab("home", children: [Tab.make("feed"), Self.tab("deals", when: #"{"country":"FR"}"#)]),
            Self.tab("shop", when: #"{"country":"FR"}"#, children: [Tab.make("cart")]),
        ])
        let france = config.resolve(client: "c", version: 1, locale: "en", saved: nil, outcome: Self.outcome(config, RequestContext(country: "FR")))
        #expect(france.tabs.map(\.id) == ["home", "shop"])
        #expect(france.tabs[0].children?.map(\.id) == ["feed", "deals"])
        let elsewhere = Self.outcome(config, RequestContext(country: "DE"))
        #expect(elsewhere.absentIDs == ["deals", "shop", "cart"])
        #expect(Self.ids(config, RequestContext(country: "DE")) == ["home"])
    }

    // MARK: - Windows

    @Test("startsAt and endsAt bound a seasonal tab; the next boundary is the first one after now")
    func windows() {
        let config = TabBarConfig(tabs: [
            Tab.make("home"),
            Self.tab("sale", startsAt: "2027-01-15T08:00:00Z", endsAt: "2027-01-16T08:00:00Z"),
        ])
        let plan = TargetingPlan(config: config)
        let before = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z
        #expect(plan.evaluate(RequestContext(), at: before.addingTimeInterval(-1)).absentIDs == ["sale"])
        #expect(plan.evaluate(RequestContext(), at: before).absentIDs.isEmpty)
        #expect(plan.evaluate(RequestContext(), at: before.addingTimeInterval(86_399)).absentIDs.isEmpty)
        #expect(plan.evaluate(RequestContext(), at: before.addingTimeInterval(86_400)).absentIDs == ["sale"])
        #expect(plan.nextBoundary(after: before.addingTimeInterval(-10)) == before)
        #expect(plan.nextBoundary(after: before) == before.addingTimeInterval(86_400))
        #expect(plan.nextBoundary(after: before.addingTimeInterval(86_400)) == nil)
    }

    // MARK: - Outcomes

    @Test("requests that get the same tab bar share an outcome key; different bars have different keys")
    func outcomeKeys() {
        let config = TabBarConfig(tabs: [
            Tab.make("home"), Self.tab("shop", when: #"{"appVersion":{"$vgte":"5.2.0"}}"#),
            Self.tab("news", when: #"{"country":"FR"}"#),
        ])
        let new1 = Self.outcome(config, RequestContext(appVersion: "5.2.0", country: "FR"))
        let new2 = Self.outcome(config, RequestContext(platform: "android", appVersion: "6.1", country: "FR"))
        let old = Self.outcome(config, RequestContext(appVersion: "5.1.0", country: "FR"))
        let none = Self.outcome(config, RequestContext())
        #expect(new1.key == new2.key)
        #expect(new1.key == "")
        #expect(Set([new1.key, old.key, none.key]).count == 3)
        #expect(TargetingPlan(config: .make(["a", "b"])).isEmpty)
        #expect(Self.outcome(.make(["a", "b"]), RequestContext(userId: "x")) == .everything)
    }

    // MARK: - The user's saved order

    @Test("a saved order naming a tab this build lacks: no tab, no report of it as dropped, back in place on a build with it")
    func savedOrderAcrossBuilds() {
        let config = TabBarConfig(tabs: [
            Tab.make("home"), Tab.make("search"), Self.tab("shop", when: #"{"appVersion":{"$vgte":"5.2.0"}}"#),
            Tab.make("profile"),
        ])
        let saved = SavedCustomization.saved(Customization(order: ["shop", "profile", "home", "search"], hidden: []), revision: 3)
        let oldBuild = config.resolve(
            client: "c", version: 1, locale: "en", saved: saved, outcome: Self.outcome(config, RequestContext(appVersion: "5.1.9")))
        #expect(oldBuild.tabs.map(\.id) == ["profile", "home", "search"])
        #expect(oldBuild.customization?.dropped == [])
        #expect(oldBuild.customization?.added == [])
        let newBuild = config.resolve(
            client: "c", version: 1, locale: "en", saved: saved, outcome: Self.outcome(config, RequestContext(appVersion: "5.2.0")))
        #expect(newBuild.tabs.map(\.id) == ["shop", "profile", "home", "search"])
    }

    @Test("a customization written without the absent tabs keeps their stored places and hidden state")
    func keepingAbsent() {
        let previous = Customization(order: ["home", "shop", "deals", "search", "profile"], hidden: ["deals", "news"])
        let written = Customization(order: ["profile", "search", "home"], hidden: [])
        let kept = written.keeping(["shop", "deals", "gone"], from: previous)
        #expect(kept.order == ["profile", "search", "home", "shop", "deals"])
        #expect(kept.hidden == ["deals"])
        let first = Customization(order: ["shop", "home"]).keeping(["shop"], from: Customization(order: ["home"]))
        #expect(first.order == ["shop", "home"])
        let leading = Customization(order: ["search", "home"]).keeping(["shop"], from: Customization(order: ["shop", "home", "search"]))
        #expect(leading.order == ["shop", "search", "home"])
        #expect(written.keeping([], from: previous) == written)
    }

    @Test("a gone tab whose replacement is absent for the request is neither dropped nor replaced")
    func replacementAbsent() {
        let config = TabBarConfig(tabs: [
            Tab.make("home"), Tab.make("search"),
            { var tab = Self.tab("shop2", when: #"{"platform":"ios"}"#); tab.replaces = "shop"; return tab }(),
        ])
        let saved = SavedCustomization.saved(Customization(order: ["shop", "search", "home"], hidden: []), revision: 1)
        let android = config.resolve(
            client: "c", version: 1, locale: "en", saved: saved, outcome: Self.outcome(config, RequestContext(platform: "android")))
        #expect(android.tabs.map(\.id) == ["search", "home"])
        #expect(android.customization?.dropped == [])
        #expect(android.customization?.replaced == [:])
        let ios = config.resolve(
            client: "c", version: 1, locale: "en", saved: saved, outcome: Self.outcome(config, RequestContext(platform: "ios")))
        #expect(ios.tabs.map(\.id) == ["shop2", "search", "home"])
        #expect(ios.customization?.replaced == ["shop": "shop2"])
    }

    @Test("an initial tab that is absent for the request falls back to the first enabled tab shown")
    func initialTabFallback() {
        var config = TabBarConfig(tabs: [
            Tab.make("home", enabled: false), Tab.make("search"), Self.tab("shop", when: #"{"platform":"ios"}"#),
        ])
        config.initialTab = "shop"
        let android = config.resolve(
            client: "c", version: 1, locale: "en", saved: nil, outcome: Self.outcome(config, RequestContext(platform: "android")))
        #expect(android.initialTab == "search")
    }

    // MARK: - Explain

    @Test("explain names the first failing condition with its pointer, and each rule that decides")
    func explain() throws {
        let config = TabBarConfig(
            tabs: [
                Tab.make("home"),
                Self.tab("shop", when: #"{"platform":"ios","appVersion":{"$vgte":"5.2.0"}}"#),
                Self.tab("deals", rollout: Rollout(coverage: 0)),
                Self.tab("sale", startsAt: "2030-01-01T00:00:00Z", children: [Tab.make("sale-items")]),
                Self.tab("both", when: #"{"$and":[{"country":"FR"},{"country":{"$ne":"FR"}}]}"#),
            ],
            experiments: [
                Experiment(key: "ios", when: Self.condition(#"{"platform":"android"}"#), variations: [Variation(), Variation()]),
                Experiment(key: "all", variations: [Variation(), Variation()]),
                Experiment(key: "late", variations: [Variation(), Variation()]),
            ])
        let explanation = TargetingPlan(config: config).explain(
            RequestContext(platform: "ios", appVersion: "5.1.9", country: "FR", userId: "u1"), at: Self.now)
        let byID = Dictionary(uniqueKeysWithValues: explanation.tabs.map { ($0.id, $0) })
        #expect(byID["home"]?.present == true)
        #expect(byID["shop"]?.reason == ExplanationReason(pointer: "/tabs/1/when/appVersion/$vgte", message: #"appVersion is "5.1.9""#))
        #expect(byID["deals"]?.reason?.pointer == "/tabs/2/rollout/coverage")
        #expect(byID["sale"]?.reason?.pointer == "/tabs/3/startsAt")
        #expect(byID["sale-items"]?.reason?.pointer == "/tabs/3")
        #expect(byID["both"]?.reason?.pointer == "/tabs/4/when/$and/1/country/$ne")
        #expect(explanation.experiments.map(\.applied) == [false, true, false])
        #expect(explanation.experiments[0].reason?.pointer == "/experiments/0/when/platform")
        #expect(explanation.experiments[2].reason?.pointer == "/experiments/1")
        let noUser = TargetingPlan(config: config).explain(RequestContext(platform: "ios"), at: Self.now)
        #expect(noUser.tabs.first { $0.id == "shop" }?.reason?.message == "the request has no appVersion")
        #expect(noUser.experiments[1].reason == ExplanationReason(pointer: "/experiments/1", message: "the request has no userId to hash"))
    }

    @Test("a memoized condition answers as the evaluator does, before and past its bound, twice over")
    func memoizedCondition() throws {
        let json = try JSONParser.parse(Data(#"{"$or":[{"appVersion":{"$vgte":"5.2"}},{"userId":{"$regex":"7$"}}],"attr.tier":{"$ne":"x"}}"#.utf8))
        let memo = MemoizedCondition(json)
        let evaluator = ConditionEvaluator()
        for round in 0..<2 {
            for index in 0..<(MemoizedCondition.maximumEntries + 500) {
                var context = RequestContext(appVersion: "5.\(index % 4)", userId: "u\(index)")
                if index % 3 == 0 { context.custom["tier"] = index % 2 == 0 ? "x" : "gold" }
                var known: JSONValue?
                let holds = memo.holds(context, attributes: &known, evaluator: evaluator)
                #expect(holds == evaluator.evalCondition(context.attributes, json), "round \(round), \(index)")
            }
        }
    }

    @Test("explain agrees with evaluate over many contexts")
    func explainAgrees() {
        let config = TabBarConfig(
            tabs: [
                Tab.make("home"), Self.tab("shop", when: #"{"appVersion":{"$vgte":"5.2.0"}}"#, rollout: Rollout(coverage: 0.4)),
                Self.tab("news", when: #"{"$or":[{"country":"FR"},{"platform":"android"}]}"#),
            ],
            experiments: [Experiment(key: "e", coverage: 0.5, variations: [Variation(), Variation()])])
        let plan = TargetingPlan(config: config)
        var generator = SplitMix64(seed: 3)
        for index in 0..<2000 {
            let context = RequestContext(
                platform: ["ios", "android"][Int(generator.next() % 2)],
                appVersion: ["5.1.0", "5.2.0", "6.0"][Int(generator.next() % 3)],
                country: ["FR", "DE"][Int(generator.next() % 2)], userId: "u\(index)")
            let outcome = plan.evaluate(context, at: Self.now)
            let explanation = plan.explain(context, at: Self.now)
            #expect(Set(explanation.tabs.filter { !$0.present }.map(\.id)) == outcome.absentIDs)
            #expect(explanation.experiments.first { $0.applied }.map { ExperimentAssignment(key: $0.key, variation: $0.variation ?? -1) } == outcome.experiment)
        }
    }
}
