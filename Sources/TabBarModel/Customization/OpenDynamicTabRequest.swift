import Foundation

/// Body of `POST …/users/{user}/dynamic-tabs`: `{"template", "name", "parameters"?, "title"?}`.
public struct OpenDynamicTabRequest: Sendable, Equatable {
    /// The template to open a tab of.
    public var template: String
    /// The tab's name, unique among the user's open tabs.
    public var name: String
    /// Values of parameters the template declares.
    public var parameters: [String: String]
    /// The tab's own title.
    public var title: String?

    /// Creates a request.
    public init(template: String, name: String, parameters: [String: String] = [:], title: String? = nil) {
        self.template = template
        self.name = name
        self.parameters = parameters
        self.title = title
    }
}

extension OpenDynamicTabRequest {
    /// Strict decode: `template` and `name` required strings, `name` matching ``DynamicTab/namePattern``; `title`
    /// 1…64 characters; `parameters` an object of at most 32 strings of at most 256 characters. Unknown fields and
    /// wrong types are problems with pointers; whether the config allows the tab is `TabBarConfig.open(_:given:)`'s
    /// question.
    public static func decode(json: Data) -> Result<OpenDynamicTabRequest, TabOrderDecodingError> {
        JSONReader.readBody(json: json) { reader, root in read(root, reader: &reader) }
    }

    private static func read(_ root: JSONValue, reader: inout JSONReader) -> OpenDynamicTabRequest {
        var request = OpenDynamicTabRequest(template: "", name: "")
        if let object = reader.object(root, at: "", allowedKeys: ["template", "name", "parameters", "title"]) {
            request.template = reader.requiredString(object, "template") ?? ""
            if let name = reader.requiredString(object, "name") {
                request.name = name
                if !DynamicTab.isValidName(name) {
                    reader.report(object.pointer("name"), "must match \(DynamicTab.namePattern), found \"\(name)\"")
                }
            }
            if let title = reader.string(object, "title") {
                request.title = title
                let lengths = ConfigValidator.titleLength
                if !lengths.contains(title.count) {
                    let range = ConfigValidator.describe(lengths)
                    reader.report(object.pointer("title"), "must be \(range) characters, has \(title.count)")
                }
            }
            let parameters = reader.stringMap(object, "parameters") ?? [:]
            let most = ConfigValidator.maximumParameters
            if parameters.count > most {
                reader.report(
                    object.pointer("parameters"), "must have at most \(most) entries, has \(parameters.count)")
            }
            let longest = ConfigValidator.maximumStringLength
            for (key, value) in parameters.sorted(by: { $0.key < $1.key }) where value.count > longest {
                reader.report(
                    JSONPointer.appending(key, to: object.pointer("parameters")),
                    "must be at most \(longest) characters, has \(value.count)")
            }
            request.parameters = parameters
        }
        return request
    }
}

/// Why a tab cannot be opened for a config.
public enum DynamicTabRejection: Error, Sendable, Equatable {
    /// The user has `maxOpen` tabs of the template open already (HTTP 409).
    case tooMany(template: String, maxOpen: Int)
    /// No such template, or parameters it does not declare (HTTP 422).
    case invalid([ValidationProblem])
}
