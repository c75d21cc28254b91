extension Tab {
    /// Decodes through the strict reader and the rules of a top-level tab and its children; throws
    /// `ConfigDecodingError.invalid` with every problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readTab($1, at: "") }) { .tab($0) }
    }
}
