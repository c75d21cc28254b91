/// A tab a user opened from one of the config's templates, as stored with the user's customization
/// (docs/design/model.md, "Tabs a user opens").
public struct DynamicTab: Codable, Sendable, Hashable {
    /// The id of the template it was opened from.
    public let template: String
    /// Unique among the user's open tabs; pattern ``namePattern``.
    public let name: String
    /// The tab's id in the user's tab bar and tab order: `<template>:<name>` (no tab id contains a colon). Kept,
    /// not computed: the merge of a user's tab bar reads it on every request.
    public let id: String
    /// Values of parameters the template declares, added to its destination's.
    public var parameters: [String: String]
    /// The tab's own title; the template's, localized, when nil.
    public var title: String?

    /// The pattern of names, as messages and the OpenAPI document state it.
    public static let namePattern = "^[A-Za-z0-9._~-]{1,64}$"

    /// Creates an open tab.
    public init(template: String, name: String, parameters: [String: String] = [:], title: String? = nil) {
        self.template = template
        self.name = name
        id = template + ":" + name
        self.parameters = parameters
        self.title = title
    }

    /// Whether `name` matches ``namePattern``.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard (1...64).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "-")
        }
    }

    private enum CodingKeys: String, CodingKey {
        case template, name, parameters, title
    }

    /// Decodes a stored tab; missing `parameters` mean none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        template = try container.decode(String.self, forKey: .template)
        name = try container.decode(String.self, forKey: .name)
        id = template + ":" + name
        parameters = try container.decodeIfPresent([String: String].self, forKey: .parameters) ?? [:]
        title = try container.decodeIfPresent(String.self, forKey: .title)
    }
}
