import Foundation
import TabBarModel
import Testing
import TestSupport

@Suite("comparing config documents")
struct ConfigDiffTests {
    /// The changes as lines, the way the command-line tools print them.
    private static func lines(_ diff: ConfigDiff) -> [String] {
        diff.changes.map(\.line)
    }

    @Test("equal documents give an empty diff")
    func equal() {
        let config = TabBarConfig.make(["home", "search", "profile"], maxVisibleTabs: 4)
        let diff = ConfigDiff(live: config, proposed: config)
        #expect(diff.isEmpty)
        #expect(diff.changes.isEmpty)
        #expect(diff.tabsAdded.isEmpty && diff.tabsRemoved.isEmpty && diff.tabsChanged.isEmpty)
        #expect(diff.tabSummary == nil)
    }

    @Test("a changed title is one leaf change at the tab's place")
    func leafChange() throws {
        let live = TabBarConfig.make(["home", "search", "profile"])
        let proposed = live.modifying(tab: 1) { $0.title.default = "Find" }
        let diff = ConfigDiff(live: live, proposed: proposed)
        #expect(diff.changes.count == 1)
        let change = try #require(diff.changes.first)
        #expect(change.kind == .changed)
        #expect(change.pointer == "/tabs/1/title/default")
        #expect(change.beforeJSON == "\"Title search\"")
        #expect(change.afterJSON == "\"Find\"")
        #expect(Self.lines(diff) == ["/tabs/1/title/default: \"Title search\" → \"Find\""])
        #expect(diff.tabsChanged == ["search"])
        #expect(diff.tabsAdded.isEmpty && diff.tabsRemoved.isEmpty)
        #expect(diff.tabSummary == "tabs changed: search")
    }

    @Test("a tab inserted before others is one addition; the tabs after it did not move")
    func insertion() {
        let live = TabBarConfig.make(["home", "search", "profile"])
        var proposed = live
        proposed.tabs.insert(.make("shop"), at: 1)
        let diff = ConfigDiff(live: live, proposed: proposed)
        #expect(diff.changes.map(\.kind) == [.added])
        #expect(diff.changes.first?.pointer == "/tabs/1")
        #expect(diff.changes.first?.beforeJSON == nil)
        #expect(diff.changes.first?.afterJSON?.contains("\"id\":\"shop\"") == true)
        #expect(diff.tabsAdded == ["shop"])
        #expect(diff.tabsChanged.isEmpty)
    }

    @Test("a removed tab is one removal pointing into the live document")
    func removal() {
        let live = TabBarConfig.make(["home", "search", "profile", "settings"])
        var proposed = live
        proposed.tabs.remove(at: 2)
        let diff = ConfigDiff(live: live, proposed: proposed)
        #expect(diff.changes.map(\.kind) == [.removed])
        #expect(diff.changes.first?.pointer == "/tabs/2")
        #expect(diff.changes.first?.afterJSON == nil)
        #expect(diff.tabsRemoved == ["profile"])
        #expect(diff.tabSummary == "tabs removed: profile")
    }

    @Test("moving one tab is one change of its place, whichever way it goes")
    func move() {
        let live = TabBarConfig.make(["a", "b", "c", "d"])
        let toEnd = ConfigDiff(live: live, proposed: .make(["b", "c", "d", "a"]))
        #expect(Self.lines(toEnd) == ["/tabs/3: moved from /tabs/0"])
        #expect(toEnd.tabsChanged == ["a"])
        let toFront = ConfigDiff(live: live, proposed: .make(["d", "a", "b", "c"]))
        #expect(Self.lines(toFront) == ["/tabs/0: moved from /tabs/3"])
        #expect(toFront.tabsChanged == ["d"])
        let swap = ConfigDiff(live: live, proposed: .make(["b", "a", "c", "d"]))
        #expect(swap.changes.map(\.kind) == [.moved])
        #expect(swap.tabsChanged.count == 1)
    }

    @Test("a moved and edited tab: its move, then its members at the new place")
    func moveAndEdit() {
        let live = TabBarConfig.make(["a", "b", "c"])
        var proposed = TabBarConfig.make(["b", "c", "a"])
        proposed.tabs[2].title.default = "Alpha"
        let diff = ConfigDiff(live: live, proposed: proposed)
        #expect(
            Self.lines(diff) == [
                "/tabs/2: moved from /tabs/0",
                "/tabs/2/title/default: \"Title a\" → \"Alpha\"",
            ])
        #expect(diff.tabsChanged == ["a"])
    }

    @Test("children are matched by id across the hierarchy")
    func children() {
        let live = TabBarConfig(tabs: [
            .make("home", children: [.make("news"), .make("weather")]), .make("search"), .make("profile"),
        ])
        var added = live
        added.tabs[1].children = [.make("recent")]
        let addition = ConfigDiff(live: live, proposed: added)
        #expect(addition.changes.map(\.kind) == [.added])
        #expect(addition.changes.first?.pointer == "/tabs/1/children/0")
        #expect(addition.tabsAdded == ["recent"])
        #expect(addition.tabsChanged.isEmpty)

        var moved = live
        moved.tabs[0].children = [.make("news")]
        moved.tabs[2].children = [.make("weather")]
        let move = ConfigDiff(live: live, proposed: moved)
        #expect(Self.lines(move) == ["/tabs/2/children/0: moved from /tabs/0/children/1"])
        #expect(move.tabsChanged == ["weather"])

        var promoted = live
        promoted.tabs[0].children = [.make("news")]
        promoted.tabs.insert(.make("weather"), at: 1)
        let promotion = ConfigDiff(live: live, proposed: promoted)
        #expect(Self.lines(promotion) == ["/tabs/1: moved from /tabs/0/children/1"])
        #expect(promotion.tabsAdded.isEmpty && promotion.tabsRemoved.isEmpty)
    }

    @Test("a removed parent is one removal; the summary lists it and its children in live order")
    func removedParent() {
        let live = TabBarConfig(tabs: [
            .make("home"), .make("more", children: [.make("help"), .make("legal")]), .make("search"),
        ])
        let proposed = TabBarConfig.make(["home", "search"])
        let diff = ConfigDiff(live: live, proposed: proposed)
        #expect(diff.changes.map(\.pointer) == ["/tabs/1"])
        #expect(diff.changes.map(\.kind) == [.removed])
        #expect(diff.tabsRemoved == ["more", "help", "legal"])
    }

    @Test("a tab that moves into a new tab is a move, not part of an addition only")
    func moveIntoAddedTab() {
        let live = TabBarConfig.make(["home", "search", "help"])
        let proposed = TabBarConfig(tabs: [.make("home"), .make("search"), .make("more", children: [.make("help")])])
        let diff = ConfigDiff(live: live, proposed: proposed)
        #expect(diff.changes.map(\.kind) == [.added, .moved])
        #expect(diff.changes.map(\.pointer) == ["/tabs/2", "/tabs/2/children/0"])
        #expect(diff.changes.last?.from == "/tabs/2")
        #expect(diff.tabsAdded == ["more"])
        #expect(diff.tabsChanged == ["help"])
    }

    @Test("without a live document every member and every tab is added")
    func newClient() {
        let proposed = TabBarConfig.make(["home", "search"], maxVisibleTabs: 4)
        let diff = ConfigDiff(live: nil, proposed: proposed)
        #expect(diff.changes.map(\.kind) == [.added, .added, .added])
        #expect(diff.changes.map(\.pointer) == ["/maxVisibleTabs", "/tabs/0", "/tabs/1"])
        #expect(diff.changes.first?.afterJSON == "4")
        #expect(diff.tabsAdded == ["home", "search"])
        #expect(!diff.isEmpty)
    }

    @Test("members of the document: added, changed and removed, in key order")
    func documentMembers() {
        var live = TabBarConfig.make(["home", "search"], maxVisibleTabs: 4)
        live.appearance = Appearance(tintColor: "#0A84FF")
        var proposed = live
        proposed.maxVisibleTabs = nil
        proposed.appearance?.tintColor = "#FF0000"
        proposed.defaultLocale = "fr"
        let diff = ConfigDiff(live: live, proposed: proposed)
        #expect(
            Self.lines(diff) == [
                "/appearance/tintColor: \"#0A84FF\" → \"#FF0000\"",
                "/defaultLocale: (none) → \"fr\"",
                "/maxVisibleTabs: 4 → (none)",
            ])
        #expect(diff.tabSummary == nil)
    }

    @Test("empty children and no children differ, as their canonical JSON does")
    func emptyChildren() {
        let live = TabBarConfig.make(["home", "search"])
        let proposed = live.modifying(tab: 0) { $0.children = [] }
        let diff = ConfigDiff(live: live, proposed: proposed)
        #expect(Self.lines(diff) == ["/tabs/0/children: (none) → []"])
        #expect(diff.tabsChanged.isEmpty)
    }

    @Test("other arrays: index by index when the length is the same, else whole")
    func otherArrays() {
        var live = TabBarConfig.make(["home", "search"])
        live.groups = ["beta": ["u1", "u2", "u3"]]
        var sameLength = live
        sameLength.groups = ["beta": ["u1", "u9", "u3"]]
        #expect(Self.lines(ConfigDiff(live: live, proposed: sameLength)) == ["/groups/beta/1: \"u2\" → \"u9\""])
        var longer = live
        longer.groups = ["beta": ["u1", "u2", "u3", "u4"]]
        #expect(
            Self.lines(ConfigDiff(live: live, proposed: longer)) == [
                "/groups/beta: [\"u1\",\"u2\",\"u3\"] → [\"u1\",\"u2\",\"u3\",\"u4\"]"
            ])
    }

    @Test("pointers escape '~' and '/' in member names")
    func escapedPointer() {
        var live = TabBarConfig.make(["home", "search"])
        live.groups = ["a/b~c": ["u1"]]
        var proposed = live
        proposed.groups = ["a/b~c": ["u2"]]
        #expect(ConfigDiff(live: live, proposed: proposed).changes.map(\.pointer) == ["/groups/a~1b~0c/0"])
    }

    @Test("reordering n tabs moves exactly those outside the longest run that kept its order", arguments: 0..<4)
    func permutations(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let ids = (0..<8).map { "t\($0)" }
        let live = TabBarConfig.make(ids)
        for _ in 0..<50 {
            let order = ids.shuffled(using: &generator)
            let diff = ConfigDiff(live: live, proposed: .make(order))
            let liveIndices = order.map { ids.firstIndex(of: $0)! }
            #expect(diff.changes.allSatisfy { $0.kind == .moved })
            #expect(diff.changes.count == ids.count - Self.longestIncreasingLength(liveIndices))
            #expect(diff.isEmpty == (order == ids))
            #expect(Set(diff.tabsChanged).count == diff.changes.count)
        }
    }

    private static func longestIncreasingLength(_ values: [Int]) -> Int {
        var length = [Int](repeating: 1, count: values.count)
        for index in values.indices {
            for earlier in 0..<index where values[earlier] < values[index] {
                length[index] = max(length[index], length[earlier] + 1)
            }
        }
        return length.max() ?? 0
    }

    @Test("a change round-trips through JSON; null is a value, an absent member none")
    func changeCoding() throws {
        let json = Data(#"{"after":1,"before":null,"kind":"changed","pointer":"/x"}"#.utf8)
        let change = try JSONDecoder().decode(ConfigDiff.Change.self, from: json)
        #expect(change.beforeJSON == "null")
        #expect(change.afterJSON == "1")
        #expect(CanonicalJSON.encode(change) == json)

        let added = try JSONDecoder().decode(
            ConfigDiff.Change.self, from: Data(#"{"after":"x","kind":"added","pointer":"/y"}"#.utf8))
        #expect(added.beforeJSON == nil)
        #expect(added.line == "/y: (none) → \"x\"")
        let move = try JSONDecoder().decode(
            ConfigDiff.Change.self, from: Data(#"{"from":"/tabs/0","kind":"moved","pointer":"/tabs/2"}"#.utf8))
        #expect(move.line == "/tabs/2: moved from /tabs/0")
    }

    @Test("a diff encodes its parts and decodes to the same value")
    func diffCoding() throws {
        let live = TabBarConfig.make(["home", "search", "profile"])
        var proposed = live.modifying(tab: 0) { $0.title.default = "Start" }
        proposed.tabs.append(.make("shop"))
        let diff = ConfigDiff(live: live, proposed: proposed)
        let decoded = try JSONDecoder().decode(ConfigDiff.self, from: CanonicalJSON.encode(diff))
        #expect(decoded == diff)
        let object = try #require(try JSONSerialization.jsonObject(with: CanonicalJSON.encode(diff)) as? [String: Any])
        #expect(Set(object.keys) == ["tabsAdded", "tabsRemoved", "tabsChanged", "changes"])
    }
}
