/// Why a customization cannot be stored for a config.
public enum TabOrderRejection: Error, Sendable, Equatable {
    /// The config has `userCustomizable: false` (HTTP 409).
    case notCustomizable
    /// Duplicate ids or hidden tabs that are not hideable (HTTP 422).
    case invalid([ValidationProblem])
}
