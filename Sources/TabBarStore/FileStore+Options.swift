extension FileStore {
    /// Tuning for a `FileStore`.
    public struct Options: Sendable {
        /// Journal bytes that trigger a compaction.
        public var compactionThreshold: Int = 64 * 1024 * 1024
        /// Test hook that makes file-system calls fail on demand.
        var faultInjector: FaultInjector?

        /// The defaults.
        public init() {}
    }
}
