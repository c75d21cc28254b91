import Synchronization

/// Makes the store's file-system calls fail on demand, so tests can exercise the fail-closed path.
final class FaultInjector: Sendable {
    private let failing = Mutex(false)

    init() {}

    /// When true, every fsync the store attempts fails with EIO.
    var failSyncs: Bool {
        get { failing.withLock { $0 } }
        set { failing.withLock { $0 = newValue } }
    }
}
