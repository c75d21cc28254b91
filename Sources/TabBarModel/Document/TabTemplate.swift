/// A kind of tab a user opens at runtime (a document, a search, a web page): the config's `tabTemplates`
/// (docs/design/model.md, "Tabs a user opens").
public struct TabTemplate: Codable, Sendable, Hashable {
    /// Unique across the document's tabs and templates; the pattern of tab ids.
    public var id: String
    /// The title of an opened tab that has none of its own, and its translations.
    public var title: LocalizedTitle
    /// Normal and selected images.
    public var icon: Icon?
    /// What an opened tab shows; the tab's parameters are added to the destination's.
    public var destination: Destination
    /// The names of the parameters an opened tab may give (pattern `^[A-Za-z][A-Za-z0-9_]{0,31}$`).
    public var parameters: [String]?
    /// Most tabs of this template a user has open at once (1…50, default ``defaultMaxOpen``).
    public var maxOpen: Int?

    /// `maxOpen` when absent.
    public static let defaultMaxOpen = 8

    /// Creates a template.
    public init(
        id: String, title: LocalizedTitle, icon: Icon? = nil, destination: Destination, parameters: [String]? = nil,
        maxOpen: Int? = nil
    ) {
        self.id = id
        self.title = title
        self.icon = icon
        self.destination = destination
        self.parameters = parameters
        self.maxOpen = maxOpen
    }

    /// `maxOpen`, or ``defaultMaxOpen``.
    public var effectiveMaxOpen: Int {
        maxOpen ?? Self.defaultMaxOpen
    }

    /// Whether `name` matches the parameter name pattern, `^[A-Za-z][A-Za-z0-9_]{0,31}$`.
    public static func isValidParameterName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, first.isASCIILetter, bytes.count <= 32 else { return false }
        return bytes.dropFirst().allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "_") }
    }
}

extension TabTemplate {
    /// Decodes through the strict reader and the rules of a template on its own; throws
    /// `ConfigDecodingError.invalid` with every problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readTemplate($1, at: "") }) { .template($0) }
    }
}
