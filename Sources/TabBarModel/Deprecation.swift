/// How far a tab is in being phased out.
public enum Deprecation: String, Codable, Sendable, Hashable, CaseIterable {
    /// Still shown, marked as deprecated.
    case soft
    /// No longer shown; saved positions follow the tab that `replaces` it.
    case hard
}
