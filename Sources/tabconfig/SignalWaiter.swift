#if canImport(Glibc)
import Glibc
#endif

/// Waits for termination signals without losing one: the signals are blocked first, so one that arrives while the
/// server starts stays pending until ``wait()`` takes it (a handler installed later could miss it).
struct SignalWaiter {
    private var set = sigset_t()

    /// Blocks `signals` in the calling thread and in every thread it starts afterwards. Call before starting any.
    init(blocking signals: [Int32]) {
        sigemptyset(&set)
        for number in signals {
            sigaddset(&set, number)
        }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Blocks the calling thread until one of the signals is pending, takes it and returns its number.
    @discardableResult
    func wait() -> Int32 {
        var set = set
        var number: Int32 = 0
        while sigwait(&set, &number) != 0 {}
        return number
    }
}
