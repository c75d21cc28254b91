/// Why a tab cannot be opened for a config.
public enum DynamicTabRejection: Error, Sendable, Equatable {
    /// The user has `maxOpen` tabs of the template open already (HTTP 409).
    case tooMany(template: String, maxOpen: Int)
    /// No such template, or parameters it does not declare (HTTP 422).
    case invalid([ValidationProblem])
}
