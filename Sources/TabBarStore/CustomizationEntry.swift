/// What the store holds for one (client, user).
public struct CustomizationEntry: Sendable, Equatable {
    /// Increases by 1 on every write for this (client, user); starts at 1.
    public var revision: UInt64
    /// The saved value; nil when the stored record's value could not be decoded (a corrupt saved record:
    /// the app then serves the default).
    public var value: StoredCustomization?

    /// Creates an entry.
    public init(revision: UInt64, value: StoredCustomization?) {
        self.revision = revision
        self.value = value
    }
}
