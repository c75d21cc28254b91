import Foundation
import TabBarStore

/// Runs `body` again (for up to about 5 s) while it fails only because the data directory's lock is held.
///
/// Other tests in this process start child processes, and a child holds copies of every descriptor (close-on-exec
/// ones included) until it execs, so a lock released here a moment ago can still look held. Tests that open the same
/// directory hundreds of times in a row go through this; a real second holder would still fail after the retries.
func retryingWhileLocked<T>(_ body: () throws -> T) throws -> T {
    var attempts = 0
    while true {
        do {
            return try body()
        } catch let error as StoreOpenError where error.directoryInUse && attempts < 250 {
            attempts += 1
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
