/// A gradual rollout of a tab: present for requests whose bucket (GrowthBook hash v2 of `seed` and the value of
/// `hashAttribute`) falls below the coverage in effect: `coverage`, or for a staged rollout (`stages` and `guard`,
/// docs/rollouts.md) the coverage of the stage the rollout stands at.
public struct Rollout: Codable, Sendable, Hashable {
    /// The share of buckets that get the tab, 0…1; nil for a staged rollout.
    public var coverage: Double?
    /// Mixed into the hash so that rollouts of different tabs pick different users (default: the tab's id).
    public var seed: String?
    /// The attribute hashed: `userId` (the default), `deviceId` or `attr.NAME`.
    public var hashAttribute: String?
    /// The stages of a staged rollout, their coverages rising; nil for one coverage.
    public var stages: [RolloutStage]?
    /// When a staged rollout rolls itself back; required with `stages`.
    public var `guard`: RolloutGuard?

    /// Creates a rollout.
    public init(
        coverage: Double? = nil, seed: String? = nil, hashAttribute: String? = nil, stages: [RolloutStage]? = nil,
        guard: RolloutGuard? = nil
    ) {
        self.coverage = coverage
        self.seed = seed
        self.hashAttribute = hashAttribute
        self.stages = stages
        self.guard = `guard`
    }

    /// The coverage before anything has happened to the rollout: `coverage`, or the first stage's.
    public var startingCoverage: Double {
        coverage ?? stages?.first?.coverage ?? 0
    }
}

/// One stage of a staged rollout: the share of buckets covered while it lasts, and how long it lasts at least.
public struct RolloutStage: Codable, Sendable, Hashable {
    /// The share of buckets that get the tab in this stage, in (0, 1].
    public var coverage: Double
    /// An ISO 8601 duration (`PT1H`, `P2D`): how long the stage lasts at least; none on the last stage.
    public var hold: String?

    /// Creates a stage.
    public init(coverage: Double, hold: String? = nil) {
        self.coverage = coverage
        self.hold = hold
    }
}

/// When a staged rollout rolls itself back: once a stage has `minOpens` reports of opens and failures, a failure rate
/// over `maxFailureRate`.
public struct RolloutGuard: Codable, Sendable, Hashable {
    /// The highest share of failed opens a stage may have, in (0, 1).
    public var maxFailureRate: Double
    /// The opens and failures a stage needs before it is judged, at least 1.
    public var minOpens: Int

    /// Creates a guard.
    public init(maxFailureRate: Double, minOpens: Int) {
        self.maxFailureRate = maxFailureRate
        self.minOpens = minOpens
    }
}

extension Rollout {
    /// Decodes through the strict reader and the rules of a rollout; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readRollout($1, at: "") }) { .rollout($0) }
    }
}
