import Foundation

/// Holds every fsync that reaches it until `open()`, so a test can keep a group-commit flush in progress.
final class SyncGate: @unchecked Sendable {  // Safe: both vars are only touched with `condition` locked.
    private let condition = NSCondition()
    private var held = false
    private var isOpen = false

    /// Called by the fsync hook: blocks until the gate is open.
    func pass() {
        condition.lock()
        defer { condition.unlock() }
        held = true
        condition.broadcast()
        while !isOpen { condition.wait() }
    }

    /// Whether an fsync has reached the gate.
    var isHeld: Bool {
        condition.withLock { held }
    }

    /// Waits until an fsync is held at the gate; false if none came within a minute (a deadlock guard, not a timing
    /// assertion).
    func waitUntilHeld() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(60)
        while !held {
            if !condition.wait(until: deadline) { return held }
        }
        return true
    }

    /// Lets every held and later fsync through.
    func open() {
        condition.withLock {
            isOpen = true
            condition.broadcast()
        }
    }
}
