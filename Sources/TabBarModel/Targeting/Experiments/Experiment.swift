/// An experiment on the bar's layout: requests whose condition holds and whose bucket the coverage includes get one
/// of the variations, chosen with GrowthBook's bucket ranges. Variation 0 is the control.
public struct Experiment: Codable, Sendable, Hashable {
    /// Names the experiment in answers and analytics; unique in the document.
    public var key: String
    /// Who may take part (default: everyone).
    public var when: Condition?
    /// The share of those who take part, 0…1 (default 1).
    public var coverage: Double?
    /// Mixed into the hash (default: `key`).
    public var seed: String?
    /// The attribute hashed: `userId` (the default), `deviceId` or `attr.NAME`.
    public var hashAttribute: String?
    /// One weight per variation, summing to 1 (default: equal weights).
    public var weights: [Double]?
    /// What each variation changes; the first is the control.
    public var variations: [Variation]

    /// Creates an experiment.
    public init(
        key: String, when: Condition? = nil, coverage: Double? = nil, seed: String? = nil,
        hashAttribute: String? = nil, weights: [Double]? = nil, variations: [Variation]
    ) {
        self.key = key
        self.when = when
        self.coverage = coverage
        self.seed = seed
        self.hashAttribute = hashAttribute
        self.weights = weights
        self.variations = variations
    }
}

extension Experiment {
    /// Decodes through the strict reader and the rules of an experiment on its own (the tabs it names and the groups
    /// its condition names are not checked: they belong to the document); throws `ConfigDecodingError.invalid` with
    /// every problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readExperiment($1, at: "") }) { .experiment($0) }
    }
}

/// The experiment a tab bar answer belongs to and its variation (0 is the control), for the app's analytics.
public struct ExperimentAssignment: Codable, Sendable, Hashable {
    /// The experiment's key.
    public var key: String
    /// The index of the variation.
    public var variation: Int

    /// Creates an assignment.
    public init(key: String, variation: Int) {
        self.key = key
        self.variation = variation
    }
}
