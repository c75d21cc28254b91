/// The half-open bucket range `[start, end)` that assigns requests to one variation of an experiment.
struct VariationRange: Sendable, Equatable {
    var start: Double
    var end: Double

    /// Whether the bucket falls in the range (start included, end excluded).
    func contains(_ bucket: Double) -> Bool {
        bucket >= start && bucket < end
    }
}
