/// Why a request's context cannot be used: the query parameter at fault and what is wrong with it.
public struct ContextProblem: Error, Sendable, Equatable {
    /// The query parameter, as sent (`appVersion`, `attr.tier`).
    public var parameter: String
    /// What is wrong, for the problem's detail.
    public var message: String

    /// Creates a problem.
    public init(parameter: String, message: String) {
        self.parameter = parameter
        self.message = message
    }
}
