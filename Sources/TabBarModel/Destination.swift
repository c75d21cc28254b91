/// The screen a tab opens; which fields apply depends on `type`.
public struct Destination: Codable, Sendable, Hashable {
    /// The kind of destination.
    public var type: DestinationType
    /// Class name (`viewController`) or storyboard name (`storyboard`).
    public var name: String?
    /// Nib to load the view controller from (`viewController`).
    public var nib: String?
    /// Whether to wrap the view controller in a navigation controller (`viewController`).
    public var embedInNavigationController: Bool?
    /// Scene identifier inside the storyboard (`storyboard`).
    public var identifier: String?
    /// Absolute http(s) URL or custom-scheme URL (`url`).
    public var url: String?
    /// Free-form string parameters handed to the destination (at most 32).
    public var parameters: [String: String]?

    /// Creates a destination.
    public init(
        type: DestinationType,
        name: String? = nil,
        nib: String? = nil,
        embedInNavigationController: Bool? = nil,
        identifier: String? = nil,
        url: String? = nil,
        parameters: [String: String]? = nil
    ) {
        self.type = type
        self.name = name
        self.nib = nib
        self.embedInNavigationController = embedInNavigationController
        self.identifier = identifier
        self.url = url
        self.parameters = parameters
    }
}
