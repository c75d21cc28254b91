/// A user's stored customization as `GET …/users/{user}/tab-order` answers it, and what a save sends.
public struct TabOrder: Codable, Sendable, Hashable {
    /// Top-level tab ids in the user's order.
    public var order: [String]
    /// Ids of the tabs the user hid.
    public var hidden: [String]
    /// Increases on every save; 0 when the user never saved.
    public var revision: Int

    /// A value with the given members.
    public init(order: [String], hidden: [String] = [], revision: Int = 0) {
        self.order = order
        self.hidden = hidden
        self.revision = revision
    }
}
