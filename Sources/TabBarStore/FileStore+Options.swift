extension FileStore {
    /// Tuning for a `FileStore`.
    public struct Options: Sendable {
        /// Journal bytes that trigger a compaction.
        public var compactionThreshold: Int = 64 * 1024 * 1024
        /// How many versions of each client are kept (at least 1); older ones are pruned after each publish and at
        /// open. The live version is always kept.
        public var keepVersions: Int = 100
        /// Test hook that makes file-system calls fail on demand.
        var faultInjector: FaultInjector?

        /// The defaults.
        public init() {}
    }
}
