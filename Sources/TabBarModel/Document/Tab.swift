/// One entry of the tab bar, or one sub-section of a tab (`children`).
public struct Tab: Codable, Sendable, Hashable {
    /// Unique across the whole hierarchy; pattern `^[a-z0-9][a-z0-9._-]{0,63}$`.
    public var id: String
    /// The title and its translations.
    public var title: LocalizedTitle
    /// Normal and selected images.
    public var icon: Icon?
    /// What the tab opens.
    public var destination: Destination
    /// Badge text shown on the tab.
    public var badge: String?
    /// Disabled tabs are shown greyed out (default true).
    public var enabled: Bool?
    /// A locked tab keeps its default slot whatever the user's order (default false; top level only).
    public var locked: Bool?
    /// Whether a user may hide the tab (default false; top level only).
    public var hideable: Bool?
    /// Sub-sections, at most 2 levels below the bar.
    public var children: [Tab]?
    /// Marks a tab being phased out; hard-deprecated tabs are no longer shown.
    public var deprecated: Deprecation?
    /// The id of the tab this one takes over from (its users' positions carry over).
    public var replaces: String?
    /// The tab exists for a request only when this condition holds.
    public var when: Condition?
    /// The tab exists only for the share of requests the rollout covers.
    public var rollout: Rollout?
    /// RFC 3339 time from which the tab exists.
    public var startsAt: String?
    /// RFC 3339 time from which the tab no longer exists.
    public var endsAt: String?

    /// Creates a tab.
    public init(
        id: String,
        title: LocalizedTitle,
        icon: Icon? = nil,
        destination: Destination,
        badge: String? = nil,
        enabled: Bool? = nil,
        locked: Bool? = nil,
        hideable: Bool? = nil,
        children: [Tab]? = nil,
        deprecated: Deprecation? = nil,
        replaces: String? = nil,
        when: Condition? = nil,
        rollout: Rollout? = nil,
        startsAt: String? = nil,
        endsAt: String? = nil
    ) {
        self.id = id
        self.title = title
        self.icon = icon
        self.destination = destination
        self.badge = badge
        self.enabled = enabled
        self.locked = locked
        self.hideable = hideable
        self.children = children
        self.deprecated = deprecated
        self.replaces = replaces
        self.when = when
        self.rollout = rollout
        self.startsAt = startsAt
        self.endsAt = endsAt
    }

    /// Whether `id` matches `^[a-z0-9][a-z0-9._-]{0,63}$`.
    public static func isValidID(_ id: String) -> Bool {
        Identifiers.isName(id, allowsUppercase: false)
    }
}

extension Tab {
    /// Decodes through the strict reader and the rules of a top-level tab and its children; throws
    /// `ConfigDecodingError.invalid` with every problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readTab($1, at: "") }) { .tab($0) }
    }
}

/// How far a tab is in being phased out.
public enum Deprecation: String, Codable, Sendable, Hashable, CaseIterable {
    /// Still shown, marked as deprecated.
    case soft
    /// No longer shown; saved positions follow the tab that `replaces` it.
    case hard
}
