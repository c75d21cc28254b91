/// What a change did to the client's tabs, against the version live before it (tab ids, each list sorted).
public struct AuditSummary: Sendable, Equatable, Codable {
    /// Tabs the new version has and the previous one did not.
    public var tabsAdded: [String]
    /// Tabs the previous version had and the new one does not (for a delete: every tab).
    public var tabsRemoved: [String]
    /// Tabs in both whose definition differs.
    public var tabsChanged: [String]

    /// Creates a summary.
    public init(tabsAdded: [String] = [], tabsRemoved: [String] = [], tabsChanged: [String] = []) {
        self.tabsAdded = tabsAdded
        self.tabsRemoved = tabsRemoved
        self.tabsChanged = tabsChanged
    }
}
