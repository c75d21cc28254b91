/// What the store keeps for one user and client: their tab order and hidden tabs.
public struct Customization: Codable, Sendable, Hashable {
    /// Top-level tab ids in the user's order.
    public var order: [String]
    /// Ids of hideable tabs the user hid.
    public var hidden: [String]

    /// Creates a customization.
    public init(order: [String] = [], hidden: [String] = []) {
        self.order = order
        self.hidden = hidden
    }

    private enum CodingKeys: String, CodingKey {
        case order, hidden
    }

    /// Decodes a customization; a missing `hidden` means none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        order = try container.decode([String].self, forKey: .order)
        hidden = try container.decodeIfPresent([String].self, forKey: .hidden) ?? []
    }
}
