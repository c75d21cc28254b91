extension Appearance {
    /// Decodes through the strict reader and the rules of an appearance; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readAppearance($1, at: "") }) { .appearance($0) }
    }
}
