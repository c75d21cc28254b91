import Foundation

extension Duration {
    /// The duration in seconds, as Foundation's APIs take it.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    /// `interval` seconds (negative ones as zero).
    static func interval(_ interval: TimeInterval) -> Duration {
        .milliseconds(Int64((max(0, interval) * 1000).rounded(.up)))
    }
}
