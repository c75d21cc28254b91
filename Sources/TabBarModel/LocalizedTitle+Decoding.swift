extension LocalizedTitle {
    /// Decodes through the strict reader and the rules of a title; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readTitle($1, at: "") }) { .title($0) }
    }
}
