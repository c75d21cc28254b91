/// Why a body is not a valid config document.
public enum ConfigDecodingError: Error, Sendable, Equatable {
    /// Not parseable JSON at all (HTTP 400); the message says where.
    case malformedJSON(String)
    /// Parseable JSON but not a valid document (HTTP 422): every problem, each with a pointer.
    case invalid([ValidationProblem])
}
