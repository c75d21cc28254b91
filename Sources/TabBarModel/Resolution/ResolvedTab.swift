/// A tab as an app receives it: localized, defaults applied.
public struct ResolvedTab: Codable, Sendable, Equatable {
    /// The tab id.
    public var id: String
    /// The title in the resolved locale.
    public var title: String
    /// The app's own localization key.
    public var titleKey: String?
    /// Normal and selected images.
    public var icon: Icon?
    /// What the tab opens.
    public var destination: Destination
    /// Badge text.
    public var badge: String?
    /// Whether the tab can be selected.
    public var enabled: Bool
    /// Whether the tab keeps its default slot (always false for children).
    public var locked: Bool
    /// Whether the user may hide the tab (always false for children).
    public var hideable: Bool
    /// `soft` for a tab being phased out; hard-deprecated tabs are never resolved.
    public var deprecated: Deprecation?
    /// Bar or "More"; top-level tabs only.
    public var placement: Placement?
    /// Localized sub-sections in document order; nil when none.
    public var children: [ResolvedTab]?
    /// For a tab the user opened: its template and name (the name closes it); nil for the config's tabs.
    public var dynamic: Dynamic?

    /// Where a tab the user opened comes from.
    public struct Dynamic: Codable, Sendable, Equatable {
        /// The template's id.
        public var template: String
        /// The tab's name.
        public var name: String

        /// Creates the reference.
        public init(template: String, name: String) {
            self.template = template
            self.name = name
        }
    }

    /// Creates a resolved tab.
    public init(
        id: String,
        title: String,
        titleKey: String? = nil,
        icon: Icon? = nil,
        destination: Destination,
        badge: String? = nil,
        enabled: Bool = true,
        locked: Bool = false,
        hideable: Bool = false,
        deprecated: Deprecation? = nil,
        placement: Placement? = nil,
        children: [ResolvedTab]? = nil,
        dynamic: Dynamic? = nil
    ) {
        self.id = id
        self.title = title
        self.titleKey = titleKey
        self.icon = icon
        self.destination = destination
        self.badge = badge
        self.enabled = enabled
        self.locked = locked
        self.hideable = hideable
        self.deprecated = deprecated
        self.placement = placement
        self.children = children
        self.dynamic = dynamic
    }
}

/// Where a top-level tab appears.
public enum Placement: String, Codable, Sendable, Hashable {
    /// In the tab bar.
    case bar
    /// In the "More" list.
    case more
}
