/// Where a top-level tab appears.
public enum Placement: String, Codable, Sendable, Hashable {
    /// In the tab bar.
    case bar
    /// In the "More" list.
    case more
}
