/// A gradual rollout of a tab: present for requests whose bucket (GrowthBook hash v2 of `seed` and the value of
/// `hashAttribute`) falls below `coverage`.
public struct Rollout: Codable, Sendable, Hashable {
    /// The share of buckets that get the tab, 0…1.
    public var coverage: Double
    /// Mixed into the hash so that rollouts of different tabs pick different users (default: the tab's id).
    public var seed: String?
    /// The attribute hashed: `userId` (the default), `deviceId` or `attr.NAME`.
    public var hashAttribute: String?

    /// Creates a rollout.
    public init(coverage: Double, seed: String? = nil, hashAttribute: String? = nil) {
        self.coverage = coverage
        self.seed = seed
        self.hashAttribute = hashAttribute
    }
}

extension Rollout {
    /// Decodes through the strict reader and the rules of a rollout; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readRollout($1, at: "") }) { .rollout($0) }
    }
}
