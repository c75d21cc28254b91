import Synchronization

/// A response produced later, from any thread, without holding a server thread while it is pending.
///
/// Return it in ``Response/init(deferred:)`` and call ``complete(_:)`` once the answer is known: the connection is
/// suspended until then and resumed to send it. One still pending when the server stops is answered 503.
public final class DeferredResponse: Sendable {
    private struct State {
        var response: (@Sendable () -> Response)?
        var resume: (@Sendable () -> Void)?
        var isTaken = false
    }

    private let state = Mutex(State())

    /// Creates a pending response.
    public init() {}

    /// Sets the response and wakes its connection. Only the first call counts.
    public func complete(_ response: Response) {
        complete { response }
    }

    /// Wakes the connection, whose worker thread then calls `make` to build the response: the completing thread
    /// does no encoding. Only the first call counts.
    public func complete(_ make: @escaping @Sendable () -> Response) {
        let resume = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.response == nil, !state.isTaken else {
                return nil
            }
            state.response = make
            defer { state.resume = nil }
            return state.resume
        }
        resume?()
    }

    /// Called by the server once the connection is suspended: `resume` runs when the response is set, at once if it
    /// already is.
    func attach(resume: @escaping @Sendable () -> Void) {
        let isComplete = state.withLock { state in
            if state.response == nil {
                state.resume = resume
            }
            return state.response != nil
        }
        if isComplete {
            resume()
        }
    }

    /// The response, built the first time it is asked for once set.
    func take() -> Response? {
        let make = state.withLock { state -> (@Sendable () -> Response)? in
            guard !state.isTaken, let make = state.response else {
                return nil
            }
            state.isTaken = true
            return make
        }
        return make?()
    }
}
