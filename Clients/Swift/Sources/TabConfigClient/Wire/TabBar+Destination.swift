extension TabBar {
    /// What a tab opens: a view controller class, a storyboard scene or a URL, with optional parameters.
    public struct Destination: Codable, Sendable, Hashable {
        /// The kind of destination.
        public var type: Kind
        /// The view controller class or the storyboard.
        public var name: String?
        /// The nib of a view controller.
        public var nib: String?
        /// Whether a view controller is wrapped in a navigation controller.
        public var embedInNavigationController: Bool?
        /// The scene in a storyboard.
        public var identifier: String?
        /// The address of a `url` destination.
        public var url: String?
        /// Parameters for the screen.
        public var parameters: [String: String]?

        /// A value with the given members.
        public init(
            type: Kind, name: String? = nil, nib: String? = nil, embedInNavigationController: Bool? = nil,
            identifier: String? = nil, url: String? = nil, parameters: [String: String]? = nil
        ) {
            self.type = type
            self.name = name
            self.nib = nib
            self.embedInNavigationController = embedInNavigationController
            self.identifier = identifier
            self.url = url
            self.parameters = parameters
        }

        /// The kind of a destination. An open set of values: an app should skip a tab whose kind it does not know.
        public struct Kind: RawRepresentable, Codable, Sendable, Hashable {
            /// The text the service writes.
            public var rawValue: String
            /// The value named by the text the service writes.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// A view controller class, `name` (optionally with `nib`).
            public static let viewController = Kind(rawValue: "viewController")
            /// A storyboard `name`, scene `identifier` (else its initial one).
            public static let storyboard = Kind(rawValue: "storyboard")
            /// A `url`.
            public static let url = Kind(rawValue: "url")
        }
    }
}
