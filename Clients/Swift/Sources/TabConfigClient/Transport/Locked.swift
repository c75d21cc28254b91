import Foundation

/// A value behind a lock, for state that URLSession's delegate callbacks (synchronous, on URLSession's queue) and
/// `nonisolated` members share with async code. `Mutex` from Synchronization would do, but needs iOS 18 and macOS 15.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // Safe: `value` is only read or written inside `withLock`, which holds `lock` for the whole access, and the
    // value is Sendable, so what `withLock` returns may cross threads.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
