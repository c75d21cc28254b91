/// The event stream as the client follows it: the task following it, which one it is (a stream that ended after
/// another started must not stop the new one), and the id of the last event read (`Last-Event-ID` on reconnect).
struct EventFollower: Sendable {
    /// The task following the stream, nil when it is not followed.
    private(set) var task: Task<Void, Never>?
    /// Counts the streams started; the current one's number.
    private(set) var generation = 0
    /// The id of the last event read from the stream.
    var lastEventID: String?

    /// Whether a stream is followed.
    var isFollowing: Bool { task != nil }

    /// Starts following with the task `start` makes for the stream's number, unless one is followed already.
    mutating func begin(_ start: (Int) -> Task<Void, Never>) {
        guard task == nil else { return }
        generation += 1
        task = start(generation)
    }

    /// The stream numbered `generation` ended; returns whether it was the current one (now not followed).
    mutating func ended(_ generation: Int) -> Bool {
        guard generation == self.generation else { return false }
        task = nil
        return true
    }

    /// Stops following.
    mutating func stop() {
        task?.cancel()
        task = nil
    }
}
