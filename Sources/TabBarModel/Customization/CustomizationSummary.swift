/// How a user's customization was merged, carried by the user variant of the resolved tab bar.
public struct CustomizationSummary: Codable, Sendable, Equatable {
    /// "user" when a saved customization was applied, "default" otherwise.
    public var source: String
    /// The stored revision (0 when the user never saved).
    public var revision: UInt64
    /// Hidden tabs that took effect.
    public var hidden: [String]
    /// Tabs the user never ordered, pinned to their default slot, in default order.
    public var added: [String]
    /// Saved ids gone from the config without a replacement, in saved order.
    public var dropped: [String]
    /// Saved id → the tab that replaces it and took its position.
    public var replaced: [String: String]

    /// Creates a summary.
    public init(
        source: String,
        revision: UInt64,
        hidden: [String] = [],
        added: [String] = [],
        dropped: [String] = [],
        replaced: [String: String] = [:]
    ) {
        self.source = source
        self.revision = revision
        self.hidden = hidden
        self.added = added
        self.dropped = dropped
        self.replaced = replaced
    }
}
