extension Experiment {
    /// Decodes through the strict reader and the rules of an experiment on its own (the tabs it names and the groups
    /// its condition names are not checked: they belong to the document); throws `ConfigDecodingError.invalid` with
    /// every problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readExperiment($1, at: "") }) { .experiment($0) }
    }
}
