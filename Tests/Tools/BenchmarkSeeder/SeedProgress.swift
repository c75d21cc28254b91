import Synchronization

/// State the seeding threads share: the next user number to write, how many writes are done, and the first error.
final class SeedProgress: Sendable {
    private let next = Atomic<Int>(0)
    private let done = Atomic<Int>(0)
    private let failure = Mutex<String?>(nil)

    /// Claims the next user number, or nil once `count` are claimed or a write failed.
    func claim(below count: Int) -> Int? {
        guard error == nil else { return nil }
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return index < count ? index : nil
    }

    /// Records one durable write.
    func finished() {
        done.wrappingAdd(1, ordering: .relaxed)
    }

    /// Number of durable writes so far.
    var completed: Int {
        done.load(ordering: .relaxed)
    }

    /// Records a failed write; only the first one is kept.
    func fail(_ message: String) {
        failure.withLock { if $0 == nil { $0 = message } }
    }

    /// The first failure, or nil.
    var error: String? {
        failure.withLock { $0 }
    }
}
