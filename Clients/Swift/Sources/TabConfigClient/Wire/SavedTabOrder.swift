/// The answer to a save (`PUT …/users/{user}/tab-order`): what was stored, and the ids it ignored.
public struct SavedTabOrder: Codable, Sendable, Hashable {
    /// The order stored (tabs the saving build lacks keep their stored place).
    public var order: [String]
    /// The hidden tabs stored.
    public var hidden: [String]
    /// The new revision.
    public var revision: Int
    /// Ids that are not tabs of the live config (nor tabs the user opened); not stored.
    public var ignored: [String]

    /// A value with the given members.
    public init(order: [String], hidden: [String], revision: Int, ignored: [String] = []) {
        self.order = order
        self.hidden = hidden
        self.revision = revision
        self.ignored = ignored
    }
}
