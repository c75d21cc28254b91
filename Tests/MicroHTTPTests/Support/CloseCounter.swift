import MicroHTTP
import Synchronization

/// Counts how often the `onClose` handlers it registered have run.
final class CloseCounter: Sendable {
    private let calls = Atomic<Int>(0)

    /// The number of handler runs so far.
    var count: Int {
        calls.load(ordering: .relaxed)
    }

    /// Registers a counting handler on `stream`.
    func watch(_ stream: ResponseStream) {
        stream.onClose { [self] in calls.add(1, ordering: .relaxed) }
    }
}
