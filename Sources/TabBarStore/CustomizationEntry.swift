import TabBarModel

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

/// Identifies one customization: a (client, user) pair.
struct CustomizationKey: Hashable, Sendable {
    var client: String
    var user: String
}

/// One user's saved tab order, hidden tabs and open tabs, as the store keeps them: the model's value itself (its
/// `Codable` form, with `dynamicTabs` only when there are any, is what `JSONDecoder` reads outside the store's fast
/// path; `appendJSON` writes it).
public typealias StoredCustomization = Customization
