internal import CMicroHTTPD
import Synchronization

/// The request-head deadline of every open connection, so that a client trickling its head cannot hold a
/// connection forever (libmicrohttpd's own timeout only measures idle time, and every byte resets it).
///
/// A connection must deliver a complete request head within `headTimeout` of being accepted. After a response it
/// may idle (libmicrohttpd's idle timeout governs that); once it sends data again, the next head is due within
/// `headTimeout` of that data. ``reap()`` shuts down the sockets of connections past their deadline; it never
/// closes them, as libmicrohttpd owns them and closes them itself, and entries leave the registry under the shard's
/// lock before that happens, so a reused descriptor is never touched. Requests update their connection's entry
/// through libmicrohttpd's socket context, taking only that entry's lock.
final class ConnectionDeadlines: Sendable {
    private enum Phase {
        /// Waiting for a request head that is due by `deadline`.
        case awaitingHead(deadline: ContinuousClock.Instant)
        /// The head arrived; the request and its response are under way.
        case headReceived
        /// The previous response finished at `since`; no data has arrived for the next request yet.
        case idle(since: ContinuousClock.Instant)
        /// The deadline passed and the socket was shut down; libmicrohttpd is closing the connection.
        case closing
    }

    /// One connection's descriptor and phase. libmicrohttpd's socket context holds a retained reference from the
    /// connection's start to its close, so each request reaches its entry without a registry lookup.
    private final class Entry: Sendable {
        let descriptor: Int32
        let phase: Mutex<Phase>

        init(descriptor: Int32, phase: Phase) {
            self.descriptor = descriptor
            self.phase = Mutex(phase)
        }
    }

    /// How far after a response's end data must arrive to count as the start of the next request, allowing for
    /// the kernel's coarse clock.
    private static let arrivalSlack: Duration = .milliseconds(50)

    /// One lock's share of the connections; several, so that opening and closing seldom wait on each other.
    private final class Shard: Sendable {
        let entries = Mutex<[Int: Entry]>([:])
    }

    private let headTimeout: Duration
    private let shards = (0..<16).map { _ in Shard() }

    /// Creates the registry; `headTimeout` of zero or less disables the deadline.
    init(headTimeout: Duration) {
        self.headTimeout = headTimeout
    }

    /// Whether a deadline applies at all.
    var isEnabled: Bool {
        headTimeout > .zero
    }

    /// Records a connection accepted now on socket `descriptor`; returns the retained entry for the connection's
    /// socket context (nil when deadlines are off), to be passed to ``closed(_:context:)``.
    func opened(_ connection: OpaquePointer, descriptor: Int32) -> UnsafeMutableRawPointer? {
        guard isEnabled, descriptor >= 0 else {
            return nil
        }
        let entry = Entry(descriptor: descriptor, phase: .awaitingHead(deadline: ContinuousClock.now.advanced(by: headTimeout)))
        shard(connection).entries.withLock { $0[Self.key(connection)] = entry }
        return Unmanaged.passRetained(entry).toOpaque()
    }

    /// Forgets a connection and releases its socket context; called before libmicrohttpd closes its socket.
    func closed(_ connection: OpaquePointer, context: UnsafeMutableRawPointer?) {
        _ = shard(connection).entries.withLock { $0.removeValue(forKey: Self.key(connection)) }
        if let context {
            Unmanaged<Entry>.fromOpaque(context).release()
        }
    }

    /// Notes that the current request head of the connection with socket context `context` is complete.
    func headReceived(context: UnsafeMutableRawPointer?) {
        guard let context else { return }
        Unmanaged<Entry>.fromOpaque(context).takeUnretainedValue().phase.withLock { $0 = .headReceived }
    }

    /// Notes that the request is over; the connection may now idle before its next request.
    func requestFinished(context: UnsafeMutableRawPointer?, at now: ContinuousClock.Instant) {
        guard let context else { return }
        Unmanaged<Entry>.fromOpaque(context).takeUnretainedValue().phase.withLock { $0 = .idle(since: now) }
    }

    /// Shuts down the sockets of connections whose request head is overdue; returns how many.
    @discardableResult
    func reap() -> Int {
        let now = ContinuousClock.now
        return shards.reduce(0) { $0 + reap($1, now: now) }
    }

    private func reap(_ shard: Shard, now: ContinuousClock.Instant) -> Int {
        shard.entries.withLock { entries in
            var reaped = 0
            for entry in entries.values {
                entry.phase.withLock { phase in
                    switch phase {
                    case .headReceived, .closing:
                        break
                    case .idle(let since):
                        if let arrival = Self.lastArrival(on: entry.descriptor, now: now),
                            arrival > since.advanced(by: Self.arrivalSlack)
                        {
                            phase = .awaitingHead(deadline: arrival.advanced(by: headTimeout))
                        }
                    case .awaitingHead(let deadline):
                        if now >= deadline {
                            _ = CMicroHTTPD_shutdown_socket(entry.descriptor)
                            phase = .closing
                            reaped += 1
                        }
                    }
                }
            }
            return reaped
        }
    }

    /// When the kernel last received data on the socket, or nil if it cannot tell.
    private static func lastArrival(on descriptor: Int32, now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let elapsed = CMicroHTTPD_ms_since_last_data(descriptor)
        guard elapsed >= 0 else {
            return nil
        }
        return now.advanced(by: .milliseconds(-elapsed))
    }

    private static func key(_ connection: OpaquePointer) -> Int {
        Int(bitPattern: connection)
    }

    /// The shard of a connection: its address without the low bits every allocation shares.
    private func shard(_ connection: OpaquePointer) -> Shard {
        shards[(Self.key(connection) >> 6) & (shards.count - 1)]
    }
}
