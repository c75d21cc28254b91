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
