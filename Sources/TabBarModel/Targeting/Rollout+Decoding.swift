extension Rollout {
    /// Decodes through the strict reader and the rules of a rollout; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decode(decoder, { $0.readRollout($1, at: "") }) { rollout, tainted in
            var validator = ConfigValidator(tainted: tainted)
            return validator.run(.rollout(rollout))
        }
    }
}
