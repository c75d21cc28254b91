/// What kind of change an audit entry records.
public enum AuditAction: String, Sendable, Codable, CaseIterable {
    /// A new version of a client's config.
    case publish
    /// A new version restoring an earlier one.
    case rollback
    /// The deletion of a client with all its versions and customizations.
    case delete
    /// A new version brought in from elsewhere (a config-as-code apply, a plist import).
    case `import`
}
