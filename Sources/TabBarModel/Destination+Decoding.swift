extension Destination {
    /// Decodes through the strict reader and the rules of a destination; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readDestination($1, at: "") }) { .destination($0) }
    }
}
