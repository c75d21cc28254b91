/// One reason a document or request is invalid.
public struct ValidationProblem: Codable, Sendable, Equatable, Hashable {
    /// RFC 6901 JSON pointer into the request body, e.g. "/tabs/2/title/default"; "" for the whole document.
    public var pointer: String
    /// What is wrong, for humans.
    public var message: String

    /// Creates a problem.
    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }
}
