/// Whether one experiment applies to a request, with its variation, and if not why.
public struct ExperimentExplanation: Encodable, Sendable, Equatable {
    /// The experiment's key.
    public var key: String
    /// The experiment's pointer in the config document.
    public var pointer: String
    /// Whether the request's tab bar comes from this experiment.
    public var applied: Bool
    /// The variation the request gets; nil when the experiment does not apply.
    public var variation: Int?
    /// Why it does not apply; nil when it does.
    public var reason: ExplanationReason?
}
