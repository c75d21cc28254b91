extension Condition: Decodable {
    /// Decodes through the strict reader and the grammar of a tab's or an experiment's condition (groups are not
    /// checked: they belong to the document); throws `ConfigDecodingError.invalid` with every problem, pointers from
    /// the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readCondition($1, at: "") }) { .condition($0) }
    }
}
