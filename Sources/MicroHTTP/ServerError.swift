/// Why the server could not start.
public struct ServerError: Error, CustomStringConvertible, Sendable {
    /// A sentence naming the address and the cause.
    public var description: String

    /// Creates an error with the given message.
    public init(_ description: String) {
        self.description = description
    }
}
