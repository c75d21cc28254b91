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
    private let finished = DispatchSemaphore(value: 0)
    private var pending = AccessLogLine()
    private var spare: [UInt8] = []
    private var stopped = false
    private var stampSecond = -1
    private var stamp: [UInt8] = []

    init(descriptor: Int32, flushDelay: Duration) {
        self.descriptor = descriptor
        self.flushDelay = flushDelay
        pending.bytes.reserveCapacity(64 * 1024)
        let thread = Thread { [self] in run() }
        thread.name = "access-log"
        thread.start()
    }

    /// Adds one line: the timestamp, then what `build` appends (which must end with a newline).
    func append(_ build: (inout AccessLogLine) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        let wasEmpty = pending.bytes.isEmpty
        pending.bytes.append(contentsOf: timestamp())
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

    /// The local time as swift-log's `StreamLogHandler` prints it (`2026-11-23T21:32:22+0000`), formatted once per
    /// second. Called with the lock held.
    private func timestamp() -> [UInt8] {
        var now = time(nil)
        if now != stampSecond {
            var local = tm()
            localtime_r(&now, &local)
            var text = [CChar](repeating: 0, count: 32)
            let count = strftime(&text, text.count, "%Y-%m-%dT%H:%M:%S%z", &local)
            stamp = text.prefix(count).map { UInt8(bitPattern: $0) }
            stampSecond = now
        }
        return stamp
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
            write(spare)
            spare.removeAll(keepingCapacity: true)
        }
        finished.signal()
    }

    /// Writes all of `bytes`, retrying after interruptions and short writes; gives up on any other error.
    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
