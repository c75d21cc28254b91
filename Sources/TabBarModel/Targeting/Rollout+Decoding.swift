extension Rollout {
    /// Decodes through the strict reader and the rules of a rollout; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readRollout($1, at: "") }) { .rollout($0) }
    }
}
