extension Icon {
    /// Decodes through the strict reader and the rules of an icon; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readIcon($1, at: "") }) { .icon($0) }
    }
}
