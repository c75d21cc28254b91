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
