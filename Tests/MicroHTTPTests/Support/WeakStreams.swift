import MicroHTTP
import Synchronization

/// Weak references to streams, to check that the server lets go of them once their requests are over.
final class WeakStreams: Sendable {
    // Safe: entries are only read and written under the `entries` lock.
    private struct Entry: @unchecked Sendable {
        weak var stream: ResponseStream?
    }

    private let entries = Mutex<[Entry]>([])

    /// Remembers `stream` without keeping it alive.
    func add(_ stream: ResponseStream) {
        entries.withLock { $0.append(Entry(stream: stream)) }
    }

    /// How many streams were added.
    var added: Int {
        entries.withLock { $0.count }
    }

    /// How many of them are still alive.
    var alive: Int {
        entries.withLock { $0.filter { $0.stream != nil }.count }
    }
}
