/// What the store keeps for one user and client: their tab order, hidden tabs and the tabs they opened.
public struct Customization: Codable, Sendable, Hashable {
    /// Top-level tab ids in the user's order (static tabs' ids and open tabs' `<template>:<name>`).
    public var order: [String]
    /// Ids of hideable tabs the user hid.
    public var hidden: [String]
    /// The tabs the user opened, in the order they were opened.
    public var dynamicTabs: [DynamicTab]

    /// Creates a customization.
    public init(order: [String] = [], hidden: [String] = [], dynamicTabs: [DynamicTab] = []) {
        self.order = order
        self.hidden = hidden
        self.dynamicTabs = dynamicTabs
    }

    /// Whether it holds no order, no hidden tab and no open tab: what a reset leaves, merged as the default order.
    public var isEmpty: Bool {
        order.isEmpty && hidden.isEmpty && dynamicTabs.isEmpty
    }

    private enum CodingKeys: String, CodingKey {
        case order, hidden, dynamicTabs
    }

    /// Decodes a customization; a missing `hidden` or `dynamicTabs` means none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        order = try container.decode([String].self, forKey: .order)
        hidden = try container.decodeIfPresent([String].self, forKey: .hidden) ?? []
        dynamicTabs = try container.decodeIfPresent([DynamicTab].self, forKey: .dynamicTabs) ?? []
    }

    /// Encodes `order` and `hidden`, and `dynamicTabs` when there are any.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(order, forKey: .order)
        try container.encode(hidden, forKey: .hidden)
        if !dynamicTabs.isEmpty {
            try container.encode(dynamicTabs, forKey: .dynamicTabs)
        }
    }
}
