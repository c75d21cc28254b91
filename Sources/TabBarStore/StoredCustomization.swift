/// One user's saved tab order and hidden tabs, as the store keeps them.
public struct StoredCustomization: Sendable, Equatable, Codable {
    /// Tab ids in the user's order.
    public var order: [String]
    /// Ids of the tabs the user hid.
    public var hidden: [String]

    /// Creates a customization value.
    public init(order: [String], hidden: [String]) {
        self.order = order
        self.hidden = hidden
    }
}
