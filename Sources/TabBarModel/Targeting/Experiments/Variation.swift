/// What one variation of an experiment changes; an empty variation (the usual control) changes nothing.
public struct Variation: Codable, Sendable, Hashable {
    /// Top-level tab ids in the variation's default order; tabs it leaves out follow in the document's order.
    public var order: [String]?
    /// Overrides the document's `maxVisibleTabs`.
    public var maxVisibleTabs: Int?
    /// Overrides the document's `initialTab`.
    public var initialTab: String?
    /// Overrides the document's `appearance`.
    public var appearance: Appearance?

    /// Creates a variation.
    public init(
        order: [String]? = nil, maxVisibleTabs: Int? = nil, initialTab: String? = nil, appearance: Appearance? = nil
    ) {
        self.order = order
        self.maxVisibleTabs = maxVisibleTabs
        self.initialTab = initialTab
        self.appearance = appearance
    }
}

extension Variation {
    /// Decodes through the strict reader and the rules of a variation on its own (the tabs it names are not checked:
    /// they belong to the document); throws `ConfigDecodingError.invalid` with every problem, pointers from the
    /// decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readVariation($1, at: "") }) { .variation($0) }
    }
}

/// The half-open bucket range `[start, end)` that assigns requests to one variation of an experiment.
struct VariationRange: Sendable, Equatable {
    var start: Double
    var end: Double

    /// Whether the bucket falls in the range (start included, end excluded).
    func contains(_ bucket: Double) -> Bool {
        bucket >= start && bucket < end
    }
}
