import Foundation

/// Polls `condition` every 5 ms until it holds or `seconds` pass; returns whether it held. For what another thread
/// or process does in its own time: tests assert that it happens, never how long it took.
public func eventually(within seconds: Int = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
    while ContinuousClock.now < deadline {
        if try condition() {
            return true
        }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return try condition()
}
