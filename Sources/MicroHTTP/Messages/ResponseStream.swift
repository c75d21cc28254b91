import Foundation
import Synchronization

/// A response body produced over time (server-sent events). Thread-safe; usable from any thread.
///
/// Return it in ``Response/init(status:headers:stream:)``; the server sends the head at once and then every byte
/// written, as the client takes them. While nothing is queued the connection holds no server thread.
/// A client that went away is noticed at the next write (a periodic heartbeat bounds how long that takes).
public final class ResponseStream: Sendable {
    /// The most unsent bytes a stream holds; a client that falls further behind is disconnected.
    static let pendingLimit = 8 * 1024 * 1024

    let state = Mutex<State>(State())

    /// Creates an open stream. Bytes written before the response is sent are kept and sent first.
    public init() {}

    /// Queues bytes for the client and wakes its connection. Returns false (and drops the bytes) once the stream is closed.
    ///
    /// Also returns false, and closes the stream, when the client has fallen more than 8 MiB behind.
    @discardableResult
    public func write(_ data: Data) -> Bool {
        let (accepted, handlers) = state.withLock { state -> (Bool, [@Sendable () -> Void]) in
            guard !state.isClosed else {
                return (false, [])
            }
            if data.isEmpty {
                return (true, [])
            }
            guard state.pendingCount <= Self.pendingLimit - data.count else {
                let handlers = state.abort()
                state.wake()
                return (false, handlers)
            }
            state.append(data)
            state.wake()
            return (true, [])
        }
        run(handlers)
        return accepted
    }

    /// Ends the response once the queued bytes are sent.
    public func finish() {
        let handlers = state.withLock { state in
            let handlers = state.close()
            state.wake()
            return handlers
        }
        run(handlers)
    }

    /// True once the client went away, `finish` was called, or the server is shutting down.
    public var isClosed: Bool {
        state.withLock { $0.isClosed }
    }

    /// Registers a handler called exactly once (on any thread) when the stream closes for any reason. If already closed, called at once.
    ///
    /// Handlers may run on a server worker thread: keep them short and never block in them.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let closed = state.withLock { state in
            if state.isClosed {
                return true
            }
            state.closeHandlers.append(handler)
            return false
        }
        if closed {
            handler()
        }
    }

    // MARK: - The server's side

    /// What ``read(into:capacity:isPeerGone:suspend:)`` produced.
    enum ReadResult: Equatable {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing is queued: `suspend` was called; a later write or close wakes the connection.
        case suspended
        /// The stream is closed and every byte was handed out: end the body.
        case end
        /// The client is gone or fell too far behind: abort the response.
        case abort
    }

    /// Binds the stream to the connection sending it; `resume` wakes that connection after a suspending read.
    /// Returns false if the stream was already bound to a response.
    func attach(resume: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.isAttached else {
                return false
            }
            state.isAttached = true
            state.resume = resume
            return true
        }
    }

    /// Hands out queued bytes, or suspends the connection when there are none and the stream is open.
    ///
    /// `isPeerGone` is asked before suspending, so a client that went away is noticed at the next write;
    /// `suspend` runs under the stream's lock so that no write can slip in between the check and the suspension.
    func read(
        into buffer: UnsafeMutableRawBufferPointer,
        isPeerGone: () -> Bool,
        suspend: () -> Void
    ) -> ReadResult {
        let (result, handlers) = state.withLock { state -> (ReadResult, [@Sendable () -> Void]) in
            if state.isAborted {
                return (.abort, [])
            }
            if state.pendingCount > 0 {
                return (.bytes(state.take(into: buffer)), [])
            }
            if state.isClosed {
                return (.end, [])
            }
            if isPeerGone() {
                return (.abort, state.abort())
            }
            state.isSuspended = true
            suspend()
            return (.suspended, [])
        }
        run(handlers)
        return result
    }

    /// The connection is finished with the response (sent, client gone, or server stopped): close for good.
    func detach() {
        let handlers = state.withLock { state in
            state.isSuspended = false
            state.resume = nil
            return state.abort()
        }
        run(handlers)
    }

    private func run(_ handlers: [@Sendable () -> Void]) {
        for handler in handlers {
            handler()
        }
    }
}
