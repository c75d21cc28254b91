extension TabBar {
    /// The experiment an answer belongs to and its variation (0 is the control).
    public struct Experiment: Codable, Sendable, Hashable {
        /// The experiment's key.
        public var key: String
        /// The variation: 0 is the control.
        public var variation: Int

        /// A value with the given members.
        public init(key: String, variation: Int) {
            self.key = key
            self.variation = variation
        }
    }
}
