import Foundation

extension ResponseStream {
    /// Everything a ``ResponseStream`` guards with its lock.
    struct State {
        /// Queued bytes; the unsent ones start at `readIndex`.
        private var buffer: [UInt8] = []
        private var readIndex = 0
        /// Set by `finish`, shutdown, a vanished client, or an overflow; never cleared.
        private(set) var isClosed = false
        /// Set when the response must be aborted instead of ended (queued bytes are dropped).
        private(set) var isAborted = false
        var closeHandlers: [@Sendable () -> Void] = []
        /// Whether a response has taken the stream.
        var isAttached = false
        /// Whether the connection is suspended in a read and waits for `resume`.
        var isSuspended = false
        /// Wakes the suspended connection; nil once the connection is finished.
        var resume: (@Sendable () -> Void)?

        /// The number of bytes not yet handed out.
        var pendingCount: Int {
            buffer.count - readIndex
        }

        mutating func append(_ data: Data) {
            if readIndex == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                readIndex = 0
            }
            buffer.append(contentsOf: data)
        }

        /// Moves as many pending bytes as fit into `destination`; returns how many.
        mutating func take(into destination: UnsafeMutableRawBufferPointer) -> Int {
            let count = min(pendingCount, destination.count)
            buffer.withUnsafeBytes { source in
                destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[readIndex..<(readIndex + count)]))
            }
            readIndex += count
            if readIndex == buffer.count {
                buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
                readIndex = 0
            } else if readIndex > 64 * 1024, readIndex > buffer.count / 2 {
                buffer.removeFirst(readIndex)
                readIndex = 0
            }
            return count
        }

        /// Closes the stream; returns the close handlers to run (outside the lock), empty if it was closed already.
        mutating func close() -> [@Sendable () -> Void] {
            guard !isClosed else {
                return []
            }
            isClosed = true
            let handlers = closeHandlers
            closeHandlers = []
            return handlers
        }

        /// Closes the stream and drops what is queued, so the response ends with an error.
        mutating func abort() -> [@Sendable () -> Void] {
            isAborted = true
            buffer = []
            readIndex = 0
            return close()
        }

        /// Resumes the connection if it is suspended waiting for bytes.
        ///
        /// Runs under the stream's lock: a connection is resumed exactly once per suspension, and never after
        /// ``ResponseStream/detach()`` (which clears `resume`), so libmicrohttpd never sees a stale connection.
        mutating func wake() {
            guard isSuspended else {
                return
            }
            isSuspended = false
            resume?()
        }
    }
}
