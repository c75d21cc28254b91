import Testing
import TestSupport
@testable import TabBarModel

@Suite("Merge against the reference merge")
struct MergeEquivalenceTests {
    private static let pool = (0..<14).map { "t\($0)" }

    private static func randomTabs(_ generator: inout SplitMix64) -> [Tab] {
        let ids = pool.shuffled(using: &generator).prefix(Int.random(in: 1...10, using: &generator))
        return ids.map { id in
            let deprecated: Deprecation? = [nil, nil, nil, .soft, .hard].randomElement(using: &generator)!
            let replaces = Int.random(in: 0..<4, using: &generator) == 0 ? pool.randomElement(using: &generator) : nil
            return Tab.make(
                id, locked: Bool.random(using: &generator) ? true : nil,
                hideable: Bool.random(using: &generator) ? true : nil, deprecated: deprecated, replaces: replaces)
        }
    }

    private static func randomCustomization(_ generator: inout SplitMix64) -> Customization {
        let candidates = pool + ["gone", "t3", "t3"]
        let order = (0..<Int.random(in: 0...12, using: &generator)).map { _ in candidates.randomElement(using: &generator)! }
        let hidden = (0..<Int.random(in: 0...3, using: &generator)).map { _ in candidates.randomElement(using: &generator)! }
        return Customization(order: order, hidden: hidden)
    }

    @Test("20,000 random configs and customizations give the reference's order, hidden, added, dropped, replaced")
    func matchesReference() {
        var generator = SplitMix64(seed: 20261122)
        for round in 0..<20_000 {
            let tabs = Self.randomTabs(&generator)
            let customization = Self.randomCustomization(&generator)
            let plan = MergePlan(tabs: tabs)
            let merge = CustomizationMerge(plan: plan, customization: customization)
            let reference = ReferenceMerge(tabs: tabs, customization: customization)
            let same = merge.order.map { plan.id(at: $0) } == reference.order && merge.hidden == reference.hidden
                && merge.added == reference.added && merge.dropped == reference.dropped
                && merge.replaced == reference.replaced
            #expect(same, "round \(round): tabs \(tabs.map(\.id)) customization \(customization)")
            if !same {
                return
            }
        }
    }
}
