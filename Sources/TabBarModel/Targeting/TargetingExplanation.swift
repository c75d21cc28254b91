/// What targeting decided for one request and why: every tab of the hierarchy and every experiment, in document
/// order.
public struct TargetingExplanation: Encodable, Sendable, Equatable {
    /// Every tab, top level and children.
    public var tabs: [TabExplanation]
    /// Every experiment.
    public var experiments: [ExperimentExplanation]
}
