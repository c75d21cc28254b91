/// Why a tab is absent or an experiment does not apply: the part of the document that decided it and what the
/// request had.
public struct ExplanationReason: Encodable, Sendable, Equatable {
    /// JSON pointer into the config document: the failing condition, `rollout/coverage`, `startsAt`…
    public var pointer: String
    /// What failed, in words.
    public var message: String
}
