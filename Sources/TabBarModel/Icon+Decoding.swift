extension Icon {
    /// Decodes through the strict reader and the rules of an icon; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decode(decoder, { $0.readIcon($1, at: "") }) { icon, tainted in
            var validator = ConfigValidator(tainted: tainted)
            return validator.run(.icon(icon))
        }
    }
}
