extension TabBar {
    /// One tab of a resolved tab bar, its title in the answer's locale.
    public struct Tab: Codable, Sendable, Hashable, Identifiable {
        /// Stable id; what a saved order lists.
        public var id: String
        /// The title in the tab bar's locale.
        public var title: String
        /// The key of the title in the app's own strings, when the config names one.
        public var titleKey: String?
        /// The images of the tab.
        public var icon: Icon?
        /// What the tab opens.
        public var destination: Destination
        /// Badge text, if any.
        public var badge: String?
        /// Whether the tab can be selected.
        public var enabled: Bool
        /// Whether the tab keeps its place: the user cannot move it.
        public var locked: Bool
        /// Whether the user may hide the tab.
        public var hideable: Bool
        /// Set when the tab is on its way out.
        public var deprecated: Deprecation?
        /// In the bar or under "More"; top-level tabs only.
        public var placement: Placement?
        /// Nested tabs, for a destination that shows them.
        public var children: [Tab]?
        /// For a tab the user opened at runtime: the template and name it was opened with.
        public var dynamic: DynamicOrigin?

        /// A tab; the service makes them, apps make some for their bundled default.
        public init(
            id: String, title: String, titleKey: String? = nil, icon: Icon? = nil, destination: Destination,
            badge: String? = nil, enabled: Bool = true, locked: Bool = false, hideable: Bool = false,
            deprecated: Deprecation? = nil, placement: Placement? = nil, children: [Tab]? = nil,
            dynamic: DynamicOrigin? = nil
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

    /// Where a top-level tab shows. An open set of values: a later service may add some.
    public struct Placement: RawRepresentable, Codable, Sendable, Hashable {
        /// The text the service writes.
        public var rawValue: String
        /// The value named by the text the service writes.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// In the tab bar itself.
        public static let bar = Placement(rawValue: "bar")
        /// Under the "More" tab.
        public static let more = Placement(rawValue: "more")
    }

    /// How a deprecated tab is treated. An open set of values.
    public struct Deprecation: RawRepresentable, Codable, Sendable, Hashable {
        /// The text the service writes.
        public var rawValue: String
        /// The value named by the text the service writes.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Still shown; the app may say it is going away.
        public static let soft = Deprecation(rawValue: "soft")
        /// No longer served (the service leaves such tabs out).
        public static let hard = Deprecation(rawValue: "hard")
    }

    /// The template and name a tab the user opened (`…/dynamic-tabs`) was opened with.
    public struct DynamicOrigin: Codable, Sendable, Hashable {
        /// The config's tab template.
        public var template: String
        /// The name the tab was opened with; it closes the tab.
        public var name: String

        /// A value with the given members.
        public init(template: String, name: String) {
            self.template = template
            self.name = name
        }
    }
}
