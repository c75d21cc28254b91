import Foundation
import TabBarModel
import Testing

/// A staged rollout's plan key, its coverage where it stands, and what a tick makes of its figures.
@Suite("staged rollouts in the model")
struct StagedRolloutModelTests {
    static let rollout = Rollout(
        seed: "s", stages: [RolloutStage(coverage: 0.1, hold: "PT1H"), RolloutStage(coverage: 0.5, hold: "PT1H"),
                            RolloutStage(coverage: 1)],
        guard: RolloutGuard(maxFailureRate: 0.02, minOpens: 100))
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func judge(stage: Int = 0, after seconds: Double, opened: Int, failed: Int) -> RolloutVerdict? {
        rollout.judge(
            stage: stage, startedAt: start, opened: opened, failed: failed, now: start.addingTimeInterval(seconds))
    }

    @Test func verdicts() {
        #expect(Self.judge(after: 10, opened: 50, failed: 0) == .hold(until: Self.start.addingTimeInterval(3_600)))
        #expect(Self.judge(after: 3_600, opened: 50, failed: 0) == .wait(reason: "hold passed; 50 of 100 opens reported in stage 1"))
        #expect(Self.judge(after: 3_600, opened: 98, failed: 2) == .advance(to: 1), "2 % is not over 2 %")
        #expect(Self.judge(stage: 1, after: 3_600, opened: 100, failed: 0) == .complete, "the next stage is the last")
        #expect(Self.judge(stage: 2, after: 0, opened: 0, failed: 0) == .complete)
        #expect(
            Self.judge(after: 10, opened: 97, failed: 3)
                == .rollBack(reason: "failure rate 3 % over 2 %: 3 failed of 100 opens in stage 1 of 3"),
            "a failing stage rolls back before its hold ends")
        #expect(Self.judge(after: 10, opened: 0, failed: 99) == .hold(until: Self.start.addingTimeInterval(3_600)),
                "too few opens to judge")
        #expect(Rollout(coverage: 0.5).judge(stage: 0, startedAt: Self.start, opened: 1, failed: 1, now: Self.start) == nil)
    }

    @Test func coverageWhereItStands() {
        #expect(Self.rollout.coverage(at: nil) == 0.1)
        #expect(Self.rollout.coverage(at: .stage(1)) == 0.5)
        #expect(Self.rollout.coverage(at: .completed) == 1)
        #expect(Self.rollout.coverage(at: .rolledBack) == 0)
        #expect(Rollout(coverage: 0.3).coverage(at: .rolledBack) == 0.3, "one coverage does not stage")
    }

    @Test func planKeys() {
        #expect(Self.rollout.planKey(tab: "shop") == "s|0.1/PT1H,0.5/PT1H,1")
        var otherGuard = Self.rollout
        otherGuard.guard = RolloutGuard(maxFailureRate: 0.5, minOpens: 1)
        #expect(otherGuard.planKey(tab: "shop") == Self.rollout.planKey(tab: "shop"), "a guard may change")
        var unseeded = Self.rollout
        unseeded.seed = nil
        #expect(unseeded.planKey(tab: "shop") == "shop|0.1/PT1H,0.5/PT1H,1")
        #expect(Rollout(coverage: 1).planKey(tab: "shop") == nil)
    }
}
