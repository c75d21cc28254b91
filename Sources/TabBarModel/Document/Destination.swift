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

extension Destination {
    /// Decodes through the strict reader and the rules of a destination; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readDestination($1, at: "") }) { .destination($0) }
    }
}

/// What kind of screen a tab opens.
public enum DestinationType: String, Codable, Sendable, Hashable, CaseIterable {
    /// A view controller class (`name`, optional `nib`, `embedInNavigationController`).
    case viewController
    /// A storyboard (`name`, optional `identifier`).
    case storyboard
    /// A web page or deep link (`url`).
    case url
}
