import Dispatch
import Foundation

/// Blocks the calling thread until one of the given signals arrives.
enum SignalWaiter {
    static func wait(for signals: [Int32]) {
        let semaphore = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "tabconfig.signals")
        let sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { semaphore.signal() }
            source.resume()
            return source
        }
        semaphore.wait()
        sources.forEach { $0.cancel() }
    }
}
