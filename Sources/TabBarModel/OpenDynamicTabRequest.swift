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
