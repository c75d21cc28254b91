/// When a client reports tab opens: at most once a ``TabBarClient/Configuration/reportInterval`` (the first an
/// interval after the client was made), and at once when the app goes to the background; never again in the
/// client's life once reporting is off.
struct ReportSchedule: Sendable {
    /// The least time between two reports on the timer.
    let interval: Duration
    /// Whether nothing is reported: no interval was configured, or the service has no reports endpoint (404).
    var isOff: Bool
    /// When the last report was made (or the client was): the next one on the timer waits an interval from it.
    private(set) var last: ContinuousClock.Instant
    /// The report waiting for its time, or being sent.
    var task: Task<Void, Never>?
    /// Whether a report is being sent (a second one waits for it to end).
    var isSending = false

    /// A schedule reporting every `interval`, counted from `now`; nil reports nothing.
    init(interval: Duration?, now: ContinuousClock.Instant = .now) {
        self.interval = interval ?? .zero
        isOff = interval == nil
        last = now
    }

    /// How long from `now` until the next report on the timer may be sent.
    func delay(now: ContinuousClock.Instant = .now) -> Duration {
        max(.zero, last + interval - now)
    }

    /// A report was made at `now` (sent, refused, or not sent for want of a token): the next waits an interval.
    mutating func reported(at now: ContinuousClock.Instant = .now) {
        last = now
    }

    /// Drops the report waiting for its time.
    mutating func cancel() {
        task?.cancel()
        task = nil
    }
}
