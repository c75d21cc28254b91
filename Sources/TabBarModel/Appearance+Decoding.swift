extension Appearance {
    /// Decodes through the strict reader and the rules of an appearance; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decode(decoder, { $0.readAppearance($1, at: "") }) { appearance, tainted in
            var validator = ConfigValidator(tainted: tainted)
            return validator.run(.appearance(appearance))
        }
    }
}
