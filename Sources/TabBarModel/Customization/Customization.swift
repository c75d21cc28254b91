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

/// What the store holds for one user, as handed to `TabBarConfig.resolve`.
public enum SavedCustomization: Sendable, Equatable {
    /// The user never saved (or reset): default order.
    case none
    /// A stored customization with its revision.
    case saved(Customization, revision: UInt64)
    /// A stored record that could not be decoded: ignored, default order.
    case undecodable(revision: UInt64)
}

extension Customization {
    /// This customization, written from a request that lacks the `absent` tabs (targeting left them out of its tab
    /// bar), with what `previous` held of them kept: each absent id of the previous order goes back right after the
    /// id that preceded it there (the nearest one in this order), or first when none does; absent ids previously
    /// hidden stay hidden. Ids this customization names itself keep the place it gives them; its open tabs are its own.
    public func keeping(_ absent: Set<String>, from previous: Customization) -> Customization {
        var order = self.order
        for (index, id) in previous.order.enumerated() where absent.contains(id) && !order.contains(id) {
            let anchor = previous.order[..<index].last { order.contains($0) }
            let position = anchor.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            order.insert(id, at: position)
        }
        let hidden = self.hidden + previous.hidden.filter { absent.contains($0) && !self.hidden.contains($0) }
        return Customization(order: order, hidden: hidden, dynamicTabs: dynamicTabs)
    }
}

extension Customization {
    /// This customization with `tab` open, after the others.
    public func opening(_ tab: DynamicTab) -> Customization {
        var copy = self
        copy.dynamicTabs.append(tab)
        return copy
    }

    /// This customization with the tab named `name` closed and its id gone from the order and the hidden tabs; nil
    /// when no tab of that name is open.
    public func closing(_ name: String) -> Customization? {
        guard let index = dynamicTabs.firstIndex(where: { $0.name == name }) else { return nil }
        var copy = self
        let id = copy.dynamicTabs.remove(at: index).id
        copy.order.removeAll { $0 == id }
        copy.hidden.removeAll { $0 == id }
        return copy
    }
}
