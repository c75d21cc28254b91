/// Why JSON is not a valid config document (or part of one, or a rollback request).
public enum ConfigDecodingError: Error, Sendable, Equatable {
    /// Not parseable JSON at all (HTTP 400); the message says where.
    case malformedJSON(String)
    /// Parseable JSON but not valid (HTTP 422): every problem, each with a pointer.
    case invalid([ValidationProblem])
}
