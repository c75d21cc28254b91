/// The experiment a tab bar answer belongs to and its variation (0 is the control), for the app's analytics.
public struct ExperimentAssignment: Codable, Sendable, Hashable {
    /// The experiment's key.
    public var key: String
    /// The index of the variation.
    public var variation: Int

    /// Creates an assignment.
    public init(key: String, variation: Int) {
        self.key = key
        self.variation = variation
    }
}
