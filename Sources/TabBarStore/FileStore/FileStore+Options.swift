extension FileStore {
    /// Tuning for a `FileStore`.
    public struct Options: Sendable {
        /// Journal bytes that trigger a compaction.
        public var compactionThreshold: Int = 64 * 1024 * 1024
        /// How many versions of each client are kept (at least 1); older ones are pruned after each publish and at
        /// open. The live version is always kept.
        public var keepVersions: Int = 100
        /// Whether concurrent customization writes share one journal write and fsync (group commit). When false,
        /// every write gets its own fsync: the baseline the benchmarks compare group commit against.
        public var groupCommit = true
        /// Where commit durations and batch sizes are reported.
        public var instruments = StoreInstruments()
        /// Test hook that makes file-system calls fail on demand.
        var faultInjector: FaultInjector?

        /// The defaults.
        public init() {}
    }
}
