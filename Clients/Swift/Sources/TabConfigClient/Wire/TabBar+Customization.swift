extension TabBar {
    /// What became of the user's saved order in a user's tab bar.
    public struct Customization: Codable, Sendable, Hashable {
        /// `user` when a saved order was merged in, `default` when there is none (or it could not be read).
        public var source: Source
        /// The revision of the user's saved customization (0: never saved). A save names it as its base.
        public var revision: Int
        /// The tabs the user hid (not in ``TabBar/tabs``).
        public var hidden: [String]
        /// Tabs added to the config since the user saved, placed at their default slot.
        public var added: [String]
        /// Saved ids no longer in the config.
        public var dropped: [String]
        /// Saved id → the tab that replaces it.
        public var replaced: [String: String]

        /// A value with the given members.
        public init(
            source: Source, revision: Int, hidden: [String] = [], added: [String] = [], dropped: [String] = [],
            replaced: [String: String] = [:]
        ) {
            self.source = source
            self.revision = revision
            self.hidden = hidden
            self.added = added
            self.dropped = dropped
            self.replaced = replaced
        }

        /// Where a user's order came from. An open set of values.
        public struct Source: RawRepresentable, Codable, Sendable, Hashable {
            /// The text the service writes.
            public var rawValue: String
            /// The value named by the text the service writes.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// The user's saved order, merged with the live config.
            public static let user = Source(rawValue: "user")
            /// The default order: the user never saved one.
            public static let `default` = Source(rawValue: "default")
        }
    }
}
