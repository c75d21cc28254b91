/// What an admin key may do. Each scope includes the ones before it: `publish` can read, `admin` can publish.
public enum AdminScope: String, Sendable, Codable, CaseIterable, Comparable {
    /// List clients, read configs, versions and explanations, dry-run a publish.
    case read
    /// Also publish, roll back and import.
    case publish
    /// Also delete clients and read the audit log.
    case admin

    public static func < (lhs: AdminScope, rhs: AdminScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
