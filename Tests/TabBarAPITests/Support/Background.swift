import Foundation
import Synchronization

/// Runs `work` on its own thread.
final class Background: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let finished = Atomic<Bool>(false)

    init(_ work: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            work()
            finished.store(true, ordering: .releasing)
            done.signal()
        }
        thread.start()
    }

    /// Whether the work has returned.
    var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// Waits up to 30 seconds; false if the work has not finished by then. Can be called again.
    func join() -> Bool {
        guard done.wait(timeout: .now() + 30) == .success else { return false }
        done.signal()
        return true
    }
}
