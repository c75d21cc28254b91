extension Variation {
    /// Decodes through the strict reader and the rules of a variation on its own (the tabs it names are not checked:
    /// they belong to the document); throws `ConfigDecodingError.invalid` with every problem, pointers from the
    /// decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readVariation($1, at: "") }) { .variation($0) }
    }
}
