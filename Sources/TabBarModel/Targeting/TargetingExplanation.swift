/// What targeting decided for one request and why: every tab of the hierarchy and every experiment, in document
/// order.
public struct TargetingExplanation: Encodable, Sendable, Equatable {
    /// Every tab, top level and children.
    public var tabs: [TabExplanation]
    /// Every experiment.
    public var experiments: [ExperimentExplanation]
}

/// Why a tab is absent or an experiment does not apply: the part of the document that decided it and what the
/// request had.
public struct ExplanationReason: Encodable, Sendable, Equatable {
    /// JSON pointer into the config document: the failing condition, `rollout/coverage`, `startsAt`…
    public var pointer: String
    /// What failed, in words.
    public var message: String
}

/// Whether one tab exists for a request, and if not why.
public struct TabExplanation: Encodable, Sendable, Equatable {
    /// The tab's id.
    public var id: String
    /// The tab's pointer in the config document.
    public var pointer: String
    /// Whether the tab is in the request's tab bar.
    public var present: Bool
    /// Why it is not; nil when present.
    public var reason: ExplanationReason?
}

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
