import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The access log's lines waiting to be written, and the thread that writes them to a file descriptor in batches.
///
/// Worker threads add a line under a lock (formatting it straight into the buffer); the writer thread, woken by the
/// first line of a batch, waits ``flushDelay`` for more, then swaps the buffer out and writes it with as few `write`
/// calls as it takes.
// Safe: `pending`, `stopped` and the cached timestamp are touched only while `condition` is locked; `spare` only by
// the writer thread.
final class AccessLogBuffer: @unchecked Sendable {
    private let condition = NSCondition()
    private let descriptor: Int32
    private let flushDelay: Duration
    private let format: LogFormat
    private let finished = DispatchSemaphore(value: 0)
    private var pending = AccessLogLine()
    private var spare: [UInt8] = []
    private var stopped = false
    private var stampSecond = -1
    private var stamp: [UInt8] = []

    init(descriptor: Int32, flushDelay: Duration, format: LogFormat) {
        self.descriptor = descriptor
        self.format = format
        self.flushDelay = flushDelay
        pending.bytes.reserveCapacity(64 * 1024)
        let thread = Thread { [self] in run() }
        thread.name = "access-log"
        thread.start()
    }

    /// Adds one line: its start with the timestamp (text: the timestamp; JSON: `{"timestamp":"…"`), then what
    /// `build` appends (which must end with a newline).
    func append(_ build: (inout AccessLogLine) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        let wasEmpty = pending.bytes.isEmpty
        appendTimestamp()
        build(&pending)
        if wasEmpty {
            condition.signal()
        }
    }

    /// Writes what is pending and ends the writer thread; lines added later are dropped.
    func stop() {
        condition.lock()
        guard !stopped else {
            condition.unlock()
            return
        }
        stopped = true
        condition.signal()
        condition.unlock()
        finished.wait()
    }

    /// Appends the line's start in `format`: for text the local time as swift-log's `StreamLogHandler` prints it,
    /// for JSON the opening of the object and the UTC time to the millisecond; the seconds are formatted once per
    /// second. Called with the lock held.
    private func appendTimestamp() {
        let (second, nanoseconds) = LogTimestamp.now()
        if second != stampSecond {
            stamp = format == .text ? LogTimestamp.text(second: second) : LogTimestamp.jsonSeconds(second: second)
            stampSecond = second
        }
        guard format == .json else {
            pending.bytes.append(contentsOf: stamp)
            return
        }
        pending.append("{\"timestamp\":\"")
        pending.bytes.append(contentsOf: stamp)
        LogTimestamp.appendJSONFraction(nanoseconds, to: &pending.bytes)
        pending.append("\"")
    }

    private func run() {
        while true {
            condition.lock()
            while pending.bytes.isEmpty, !stopped {
                condition.wait()
            }
            if pending.bytes.isEmpty {
                condition.unlock()
                break
            }
            let stopping = stopped
            condition.unlock()
            if !stopping {
                Thread.sleep(forTimeInterval: Double(flushDelay.components.attoseconds) / 1e18)
            }
            condition.lock()
            swap(&pending.bytes, &spare)
            condition.unlock()
            LogOutput.write(spare, to: descriptor)
            spare.removeAll(keepingCapacity: true)
        }
        finished.signal()
    }
}
