/// A failure of ``TestClient``: connect, send, receive or parse.
public struct TestClientError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public var description: String

    /// Creates an error with the given message.
    public init(_ description: String) {
        self.description = description
    }
}
