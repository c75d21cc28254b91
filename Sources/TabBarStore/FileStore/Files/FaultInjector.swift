import Synchronization

/// Makes the store's file-system calls fail (or wait) on demand, so tests can exercise the fail-closed path and hold
/// a group-commit flush open.
final class FaultInjector: Sendable {
    private let failing = Mutex(false)
    private let syncHook = Mutex<(@Sendable (String) -> Void)?>(nil)

    init() {}

    /// When true, every fsync the store attempts fails with EIO.
    var failSyncs: Bool {
        get { failing.withLock { $0 } }
        set { failing.withLock { $0 = newValue } }
    }

    /// Called with the path before every fsync the store attempts, outside any lock of the injector.
    var beforeSync: (@Sendable (String) -> Void)? {
        get { syncHook.withLock { $0 } }
        set { syncHook.withLock { $0 = newValue } }
    }
}
