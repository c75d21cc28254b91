import Foundation

/// Where one tab's staged rollout stands (docs/rollouts.md): kept by the store beside the document, never in it, so
/// that `export` prints the plan and git holds it while the stage it has reached survives restarts and is shared by
/// every replica.
public struct RolloutState: Sendable, Equatable, Codable {
    /// What a rollout is doing.
    public enum Phase: String, Sendable, Codable, CaseIterable {
        /// Its stage's coverage is in effect, and ticks advance it or roll it back.
        case running
        /// Its stage's coverage is in effect; nothing moves it until it is resumed.
        case paused
        /// Its last stage reached: that coverage stays in effect.
        case completed
        /// Rolled back: coverage 0 until its plan changes.
        case rolledBack
    }

    /// The client whose document holds the plan.
    public var client: String
    /// The tab rolled out.
    public var tab: String
    /// The plan this state follows (its seed and stages, `Rollout.planKey`): another plan starts again at stage 0.
    public var plan: String
    /// The stage reached, from 0.
    public var stage: Int
    /// When the stage began.
    public var stageStartedAt: Date
    /// Opens reported in this stage that worked.
    public var opened: Int
    /// Opens reported in this stage that failed.
    public var failed: Int
    public var phase: Phase
    /// Why it stands where it does: what rolled it back, who paused it, why a stage waits.
    public var reason: String?
    /// The store's number of this write of the state, rising with every write of any rollout of the store (0: not
    /// written yet). A write names the state it replaces, so that of two processes acting on one rollout one wins.
    public var revision: Int
    /// When the state was written.
    public var updatedAt: Date

    /// Creates a state.
    public init(
        client: String, tab: String, plan: String, stage: Int = 0, stageStartedAt: Date, opened: Int = 0,
        failed: Int = 0, phase: Phase = .running, reason: String? = nil, revision: Int = 0, updatedAt: Date
    ) {
        self.client = client
        self.tab = tab
        self.plan = plan
        self.stage = stage
        self.stageStartedAt = stageStartedAt
        self.opened = opened
        self.failed = failed
        self.phase = phase
        self.reason = reason
        self.revision = revision
        self.updatedAt = updatedAt
    }

    /// Whether `stored` is still `expected`, the state a write was decided from (nil: none): the same revision and
    /// the same counts (counts are added without a new revision, by every process).
    public static func isUnchanged(_ stored: RolloutState?, since expected: RolloutState?) -> Bool {
        guard let expected else { return stored == nil }
        guard let stored else { return false }
        return stored.revision == expected.revision && stored.opened == expected.opened
            && stored.failed == expected.failed
    }
}

/// A client's tab, the key of a rollout's state.
public struct RolloutKey: Hashable, Sendable, Comparable {
    public var client: String
    public var tab: String

    public init(client: String, tab: String) {
        self.client = client
        self.tab = tab
    }

    public static func < (a: RolloutKey, b: RolloutKey) -> Bool {
        (a.client, a.tab) < (b.client, b.tab)
    }
}

extension RolloutState {
    /// The state's key.
    public var key: RolloutKey { RolloutKey(client: client, tab: tab) }
}
