/// A user's order of top-level tabs and the tabs they hid: what the user sees, and what a save stores.
public struct TabOrderState: Codable, Sendable, Hashable {
    /// Top-level tab ids, in order.
    public var order: [String]
    /// Ids of hidden tabs.
    public var hidden: [String]

    /// A value with the given members.
    public init(order: [String], hidden: [String] = []) {
        self.order = order
        self.hidden = hidden
    }

    /// The order a tab bar shows (every top-level tab, bar and "More") and the tabs its user hid.
    public init(_ tabBar: TabBar) {
        self.init(order: tabBar.tabs.map(\.id), hidden: tabBar.customization?.hidden ?? [])
    }
}
