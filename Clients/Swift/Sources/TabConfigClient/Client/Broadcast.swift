import Foundation

/// The latest value and a stream of it for each listener: a new listener gets the latest value first, then every
/// later one (the newest 64 while it lags behind). A broadcast of events (`replaysLatest` false) hands a listener only
/// what is published after it started listening, each value even when it equals the one before.
final class Broadcast<Value: Sendable & Equatable>: Sendable {
    private struct State: Sendable {
        var current: Value?
        var listeners: [UUID: AsyncStream<Value>.Continuation] = [:]
        var finished = false
    }

    private let state: Locked<State>
    private let replaysLatest: Bool

    init(_ initial: Value? = nil, replaysLatest: Bool = true) {
        state = Locked(State(current: initial))
        self.replaysLatest = replaysLatest
    }

    /// The latest value.
    var current: Value? { state.withLock { $0.current } }

    /// A stream of the latest value, then every later one; it ends when the broadcast finishes.
    func stream() -> AsyncStream<Value> {
        AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            let id = UUID()
            let added = state.withLock { state -> Bool in
                guard !state.finished else { return false }
                if replaysLatest, let current = state.current { continuation.yield(current) }
                state.listeners[id] = continuation
                return true
            }
            guard added else {
                continuation.finish()
                return
            }
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { $0.listeners[id] = nil }
            }
        }
    }

    /// Makes `value` the latest and hands it to every listener, unless it equals the latest.
    func publish(_ value: Value) {
        let listeners = state.withLock { state -> [AsyncStream<Value>.Continuation] in
            guard !replaysLatest || state.current != value else { return [] }
            state.current = value
            return Array(state.listeners.values)
        }
        listeners.forEach { $0.yield(value) }
    }

    /// Changes the latest value with `change` and publishes it.
    func update(_ change: (inout Value) -> Void) {
        let (value, listeners) = state.withLock { state -> (Value?, [AsyncStream<Value>.Continuation]) in
            guard var value = state.current else { return (nil, []) }
            change(&value)
            guard value != state.current else { return (nil, []) }
            state.current = value
            return (value, Array(state.listeners.values))
        }
        if let value { listeners.forEach { $0.yield(value) } }
    }

    /// Ends every listener's stream; later listeners get the latest value only.
    func finish() {
        let listeners = state.withLock { state -> [AsyncStream<Value>.Continuation] in
            state.finished = true
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        listeners.forEach { $0.finish() }
    }
}
