import CoreMetrics

/// Where a store reports its commits, as swift-metrics handlers (the service backs them with Prometheus series); the
/// defaults report nowhere.
public struct StoreInstruments: Sendable {
    /// How long each commit of customization writes took to become durable (a journal write and fsync, or a
    /// database transaction).
    public var commitDuration: (any TimerHandler)?
    /// How many writes each commit made durable (group commit shares one fsync).
    public var commitBatchSize: (any RecorderHandler)?

    /// Reports to the handlers given.
    public init(commitDuration: (any TimerHandler)? = nil, commitBatchSize: (any RecorderHandler)? = nil) {
        self.commitDuration = commitDuration
        self.commitBatchSize = commitBatchSize
    }

    /// Records one commit.
    func commitFinished(duration: Duration, batchSize: Int) {
        let (seconds, attoseconds) = duration.components
        commitDuration?.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        commitBatchSize?.record(Int64(batchSize))
    }
}
