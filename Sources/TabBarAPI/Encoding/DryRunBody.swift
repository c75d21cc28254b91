import TabBarModel

/// `PUT …/config?dryRun=true` answer: the live version the document was compared with and what publishing it would
/// change (the members of a `ConfigDiff`, side by side with the others). Public so that `tabconfig apply` reads it
/// with this type.
public struct DryRunBody: Codable, Sendable {
    /// The client the document is for.
    public var client: String
    /// The live version compared with; 0 when the client has none (a publish would create it).
    public var liveVersion: Int
    /// That version's `ETag`, for the `If-Match` of the publish that follows; nil when there is none.
    public var liveETag: String?
    /// Whether the document differs from the live one. A publish makes a new version either way.
    public var changed: Bool
    /// `ConfigDiff.tabsAdded`.
    public var tabsAdded: [String]
    /// `ConfigDiff.tabsRemoved`.
    public var tabsRemoved: [String]
    /// `ConfigDiff.tabsChanged`.
    public var tabsChanged: [String]
    /// `ConfigDiff.changes`.
    public var changes: [ConfigDiff.Change]

    init(client: String, liveVersion: Int, liveETag: String?, diff: ConfigDiff) {
        self.client = client
        self.liveVersion = liveVersion
        self.liveETag = liveETag
        changed = !diff.isEmpty
        tabsAdded = diff.tabsAdded
        tabsRemoved = diff.tabsRemoved
        tabsChanged = diff.tabsChanged
        changes = diff.changes
    }

    /// What would change.
    public var diff: ConfigDiff {
        ConfigDiff(tabsAdded: tabsAdded, tabsRemoved: tabsRemoved, tabsChanged: tabsChanged, changes: changes)
    }
}
