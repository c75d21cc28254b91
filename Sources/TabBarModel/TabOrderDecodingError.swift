/// Why a PUT tab-order body was refused before looking at the config.
public enum TabOrderDecodingError: Error, Sendable, Equatable {
    /// Not parseable JSON (HTTP 400); the message says where.
    case malformedJSON(String)
    /// Wrong shape or types (HTTP 422).
    case invalid([ValidationProblem])
}
