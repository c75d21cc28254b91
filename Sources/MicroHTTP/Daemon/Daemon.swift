internal import CMicroHTTPD
import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Owns one libmicrohttpd daemon handle and its listening socket; stops the daemon in `deinit`.
///
/// Not thread-safe by itself: ``Server`` serializes every call under its lock.
final class Daemon {
    /// The bound TCP port.
    let port: Int
    private let context: ServerContext
    private var handle: OpaquePointer?
    private var quiescedSocket: Int32 = -1
    private var reaper: (any DispatchSourceTimer)?

    /// How often connections are checked against their request-head deadline.
    private static let reapInterval: DispatchTimeInterval = .milliseconds(500)

    private init(handle: OpaquePointer, port: Int, context: ServerContext) {
        self.handle = handle
        self.port = port
        self.context = context
        if context.deadlines.isEnabled {
            reaper = Self.startReaper(context: context)
        }
    }

    deinit {
        stop()
    }

    /// Starts serving on the bound socket `bound` (which it then owns) with the callbacks reaching `context`.
    static func start(
        configuration: Server.Configuration, bound: ListeningSocket.Bound, context: ServerContext
    ) throws -> Daemon {
        let guardCopy = dup(bound.descriptor)
        defer {
            if guardCopy >= 0 {
                Glibc.close(guardCopy)
            }
        }
        context.lastDaemonMessage.withLock { $0 = nil }
        let cls = Unmanaged.passUnretained(context).toOpaque()
        let handle = CMicroHTTPD_start_daemon(
            flags(ipv6: bound.isIPv6),
            bound.descriptor,
            DaemonCallbacks.access,
            cls,
            DaemonCallbacks.completed,
            cls,
            DaemonCallbacks.log,
            cls,
            DaemonCallbacks.connectionEvent,
            cls,
            UInt32(clamping: max(configuration.threadPoolSize, 1)),
            UInt32(clamping: max(configuration.connectionLimit, 1)),
            UInt32(clamping: max(configuration.perIPConnectionLimit, 0)),
            UInt32(clamping: max(configuration.connectionTimeout, 0)),
            max(configuration.connectionMemoryLimit, 4 * 1024)
        )
        guard let handle else {
            if guardCopy >= 0, sameSocket(bound.descriptor, guardCopy) {
                Glibc.close(bound.descriptor)
            }
            let detail = context.lastDaemonMessage.withLock { $0 } ?? "libmicrohttpd could not start the daemon"
            throw ServerError("cannot serve on \(configuration.host):\(bound.port): \(detail)")
        }
        context.logger.debug(
            "libmicrohttpd daemon started",
            metadata: ["port": "\(bound.port)", "threads": "\(configuration.threadPoolSize)"]
        )
        return Daemon(handle: handle, port: bound.port, context: context)
    }

    /// Stops accepting new connections; connections already open are still served.
    ///
    /// libmicrohttpd hands the listening socket back; it is shut down at once, so that a new connection is refused
    /// (and one the kernel had queued but libmicrohttpd not yet accepted is reset) instead of waiting unanswered in
    /// the backlog until the daemon stops. It is closed only in ``stop()``: a polling thread may not yet have
    /// noticed the quiesce, and shutting down keeps the descriptor's number from being reused under it (an
    /// `accept` on it fails with `EINVAL`).
    func quiesce() {
        guard let handle, quiescedSocket < 0 else {
            return
        }
        quiescedSocket = MHD_quiesce_daemon(handle)
        if quiescedSocket >= 0 {
            _ = CMicroHTTPD_shutdown_socket(quiescedSocket)
        }
    }

    /// Stops the daemon at once, closing every connection. Idempotent.
    ///
    /// Finishes every open stream first: that resumes each suspended connection, which libmicrohttpd requires
    /// before `MHD_stop_daemon` (it aborts the process if one is still suspended).
    func stop() {
        guard let handle else {
            return
        }
        reaper?.cancel()
        reaper = nil
        context.streams.closeAll { $0.finish() }
        let unavailable = Response(status: 503, headers: ["Connection": "close", "Retry-After": "1"])
        context.deferrals.closeAll { $0.complete(unavailable) }
        quiesce()
        MHD_stop_daemon(handle)
        self.handle = nil
        if quiescedSocket >= 0 {
            Glibc.close(quiescedSocket)
            quiescedSocket = -1
        }
        context.logger.debug("libmicrohttpd daemon stopped", metadata: ["port": "\(port)"])
    }

    /// Shuts down, every ``reapInterval``, the connections whose request head is overdue.
    private static func startReaper(context: ServerContext) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "MicroHTTP.request-head-deadline"))
        timer.schedule(deadline: .now() + reapInterval, repeating: reapInterval, leeway: .milliseconds(100))
        // The handler holds what it uses, not the context: a weak reference would give the context a side table,
        // and then every retain of it on the request path takes the slower, side-table way.
        let deadlines = context.deadlines
        let logger = context.logger
        timer.setEventHandler {
            let reaped = deadlines.reap()
            if reaped > 0 {
                logger.debug("closed connections whose request head was overdue", metadata: ["connections": "\(reaped)"])
            }
        }
        timer.resume()
        return timer
    }

    /// Internal polling threads with `poll()`. Not epoll: in 0.9.75, `MHD_quiesce_daemon` races with the polling
    /// threads over removing the listen socket from their epoll sets and aborts the process ("Failed to remove
    /// listen FD from epoll set") when a worker removed it first; with `poll()` quiescing only signals the workers.
    /// `MHD_USE_TURBO` (no `shutdown()` before closing a connection, optimistic reads) measured 25 % more GETs per
    /// second (Benchmarks/results/reads/unknown-unknown-threading.md).
    private static func flags(ipv6: Bool) -> UInt32 {
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_POLL.rawValue | MHD_USE_TURBO.rawValue
        if ipv6 {
            flags |= MHD_USE_IPv6.rawValue
        }
        return flags
    }

    /// Whether two descriptors are open on the same socket (to close ours only if libmicrohttpd did not).
    private static func sameSocket(_ lhs: Int32, _ rhs: Int32) -> Bool {
        var left = stat()
        var right = stat()
        guard fstat(lhs, &left) == 0, fstat(rhs, &right) == 0 else {
            return false
        }
        return left.st_dev == right.st_dev && left.st_ino == right.st_ino
    }
}
