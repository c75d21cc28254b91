extension TabTemplate {
    /// Decodes through the strict reader and the rules of a template on its own; throws
    /// `ConfigDecodingError.invalid` with every problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readTemplate($1, at: "") }) { .template($0) }
    }
}
