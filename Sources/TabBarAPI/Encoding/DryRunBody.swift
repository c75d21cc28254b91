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
    /// `BuildCoverage.builds`: the registered builds that would not show some tab. Nil only from a service that
    /// predates build manifests.
    public var builds: [BuildCoverage.Build]?
    /// `BuildCoverage.unopenable`: the tabs no registered build could open.
    public var unopenable: [BuildCoverage.Tab]?

    init(client: String, liveVersion: Int, liveETag: String?, diff: ConfigDiff, coverage: BuildCoverage) {
        self.client = client
        self.liveVersion = liveVersion
        self.liveETag = liveETag
        changed = !diff.isEmpty
        tabsAdded = diff.tabsAdded
        tabsRemoved = diff.tabsRemoved
        tabsChanged = diff.tabsChanged
        changes = diff.changes
        builds = coverage.builds
        unopenable = coverage.unopenable
    }

    /// What would change.
    public var diff: ConfigDiff {
        ConfigDiff(tabsAdded: tabsAdded, tabsRemoved: tabsRemoved, tabsChanged: tabsChanged, changes: changes)
    }
}

/// The answer of a publish (`PUT …/config`, a rollback, an import): the new version's envelope, and what the registered
/// builds cannot open of it, as a dry run answers them.
struct PublishBody: Encodable {
    var envelope: ConfigEnvelope
    var coverage: BuildCoverage

    private enum CodingKeys: String, CodingKey {
        case builds, unopenable
    }

    func encode(to encoder: any Encoder) throws {
        try envelope.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(coverage.builds, forKey: .builds)
        try container.encode(coverage.unopenable, forKey: .unopenable)
    }
}
