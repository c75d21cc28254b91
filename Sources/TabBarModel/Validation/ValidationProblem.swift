/// One reason a document or request is invalid.
public struct ValidationProblem: Codable, Sendable, Equatable, Hashable {
    /// RFC 6901 JSON pointer into the request body, e.g. "/tabs/2/title/default"; "" for the whole document.
    public var pointer: String
    /// What is wrong, for humans.
    public var message: String

    /// The problem as command-line tools print it: `POINTER: MESSAGE`, with `/` for the whole document.
    public var line: String {
        "\(pointer.isEmpty ? "/" : pointer): \(message)"
    }

    /// Creates a problem.
    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }
}
