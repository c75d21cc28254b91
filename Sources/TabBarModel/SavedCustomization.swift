/// What the store holds for one user, as handed to `TabBarConfig.resolve`.
public enum SavedCustomization: Sendable, Equatable {
    /// The user never saved (or reset): default order.
    case none
    /// A stored customization with its revision.
    case saved(Customization, revision: UInt64)
    /// A stored record that could not be decoded: ignored, default order.
    case undecodable(revision: UInt64)
}
