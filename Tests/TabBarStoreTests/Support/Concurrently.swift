import Foundation
import Synchronization

/// Runs a body on several threads released together, for races.
enum Concurrently {
    /// Runs `body(thread)` on `count` threads released at once; returns their results in thread order once all are
    /// done.
    static func run<Value: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> Value) -> [Value] {
        let results = Mutex<[Int: Value]>([:])
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for thread in 0..<count {
            done.enter()
            Thread.detachNewThread {
                start.wait()
                let value = body(thread)
                results.withLock { $0[thread] = value }
                done.leave()
            }
        }
        for _ in 0..<count { start.signal() }
        done.wait()
        return results.withLock { results in (0..<count).map { results[$0]! } }
    }
}
