import Foundation

/// Where a staged rollout stands, as far as answers go: the stage whose coverage is in effect, completed (the last
/// stage's), or rolled back (none).
public enum RolloutStanding: Sendable, Equatable {
    case stage(Int)
    case completed
    case rolledBack
}

/// What a tick makes of a running staged rollout (docs/rollouts.md), from its stage's figures.
public enum RolloutVerdict: Sendable, Equatable {
    /// The failure rate is over the guard with enough opens: roll back, saying why.
    case rollBack(reason: String)
    /// The stage's hold has passed with enough opens: on to stage `to`.
    case advance(to: Int)
    /// The hold has passed with enough opens at the stage before the last (or the rollout stands at the last): on to
    /// the last stage, whose coverage stays.
    case complete
    /// The hold has passed without enough opens: the stage waits, saying for what.
    case wait(reason: String)
    /// The hold has not passed.
    case hold(until: Date)
}

extension Rollout {
    /// Whether the rollout moves through stages.
    public var isStaged: Bool { stages != nil }

    /// What identifies a staged rollout's plan: its seed (default: the tab's id) and its stages. Publishing the same
    /// plan keeps where the rollout stands; another plan starts again at its first stage. Nil for one coverage.
    public func planKey(tab: String) -> String? {
        guard let stages else { return nil }
        let steps = stages.map { stage in
            JavaScriptNumber.string(stage.coverage) + (stage.hold.map { "/" + $0 } ?? "")
        }
        return "\(seed ?? tab)|" + steps.joined(separator: ",")
    }

    /// The coverage in effect where the rollout stands (nil: nothing has happened to it yet, its first stage).
    public func coverage(at standing: RolloutStanding?) -> Double {
        guard let stages, !stages.isEmpty else { return coverage ?? 0 }
        switch standing ?? .stage(0) {
        case .stage(let index): return stages[min(max(index, 0), stages.count - 1)].coverage
        case .completed: return stages[stages.count - 1].coverage
        case .rolledBack: return 0
        }
    }

    /// The verdict on a running staged rollout at `stage` (begun at `startedAt`) with `opened` opens that worked and
    /// `failed` that did not, at `now`: a failure rate over the guard with `minOpens` reached rolls it back; a hold
    /// passed with `minOpens` reached advances it (completes it on reaching the last stage); a hold passed without
    /// waits. Nil for a rollout that is not staged or a stage it does not have.
    public func judge(stage: Int, startedAt: Date, opened: Int, failed: Int, now: Date) -> RolloutVerdict? {
        guard let stages, let guardRule = self.guard, stages.indices.contains(stage) else { return nil }
        let reports = opened + failed
        let rate = reports == 0 ? 0 : Double(failed) / Double(reports)
        let enough = reports >= guardRule.minOpens
        if enough, rate > guardRule.maxFailureRate {
            return .rollBack(
                reason: "failure rate \(Self.percent(rate)) over \(Self.percent(guardRule.maxFailureRate)): \(failed) "
                    + "failed of \(reports) opens in stage \(stage + 1) of \(stages.count)")
        }
        guard stage < stages.count - 1 else { return .complete }
        let hold = stages[stage].hold.flatMap(ISODuration.seconds) ?? 0
        let until = startedAt.addingTimeInterval(hold)
        guard now >= until else { return .hold(until: until) }
        guard enough else {
            return .wait(
                reason: "hold passed; \(reports) of \(guardRule.minOpens) opens reported in stage \(stage + 1)")
        }
        return stage + 1 == stages.count - 1 ? .complete : .advance(to: stage + 1)
    }

    /// `share` as a percentage with up to two decimals: `2 %`, `0.25 %`.
    static func percent(_ share: Double) -> String {
        JavaScriptNumber.string((share * 10_000).rounded() / 100) + " %"
    }
}

extension TabBarConfig {
    /// Every tab with a staged rollout (top level and children), in document order, with the rollout.
    public var stagedRollouts: [(tab: String, rollout: Rollout)] {
        func walk(_ tabs: [Tab]) -> [(tab: String, rollout: Rollout)] {
            tabs.flatMap { tab in
                (tab.rollout?.isStaged == true ? [(tab.id, tab.rollout!)] : []) + walk(tab.children ?? [])
            }
        }
        return walk(tabs)
    }
}
