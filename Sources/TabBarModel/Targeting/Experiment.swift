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
