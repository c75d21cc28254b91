import Foundation
import Synchronization

/// Runs `work` on its own thread; ``value()`` waits for it.
final class BackgroundWork<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () throws -> T) {
        let thread = Thread { [self] in
            let outcome = Result { try work() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        thread.start()
    }

    /// Waits up to 30 seconds for the work and returns its value or rethrows its error.
    func value() throws -> T {
        guard done.wait(timeout: .now() + 30) == .success else {
            throw BackgroundWorkTimeout()
        }
        return try result.withLock { $0! }.get()
    }
}

struct BackgroundWorkTimeout: Error {}
