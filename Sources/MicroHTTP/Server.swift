import Foundation
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server over libmicrohttpd that hands complete requests to a ``Responder``.
///
/// Start it with ``start()``, read the bound ``port``, stop it with ``shutdown(gracePeriod:)``.
// Safe: the daemon handle is only touched under the `lifecycle` mutex; every other property is immutable or atomic.
public final class Server: @unchecked Sendable {
    private enum Lifecycle {
        case idle
        case running(Daemon)
        case stopped
    }

    private let configuration: Configuration
    private let context: ServerContext
    private let lifecycle = Mutex<Lifecycle>(.idle)
    private let boundPort = Atomic<Int>(0)
    private let listener: Listener?

    /// Creates a server; nothing is bound until ``start()``, unless `listener` was bound already: the server then
    /// accepts on it, and ``Configuration/host`` and ``Configuration/port`` only name it in messages.
    public init(configuration: Configuration, responder: any Responder, logger: Logger, listener: Listener? = nil) {
        self.configuration = configuration
        self.listener = listener
        self.context = ServerContext(responder: responder, logger: logger, configuration: configuration)
    }

    deinit {
        lifecycle.withLock { state in
            if case .running(let daemon) = state {
                daemon.stop()
            }
            state = .stopped
        }
        context.accessLog?.stop()
    }

    /// Binds and starts serving; throws ServerError with a clear message (e.g. address in use, bad host).
    public func start() throws {
        try lifecycle.withLock { state in
            switch state {
            case .running:
                throw ServerError("the server on \(configuration.host):\(boundPort.load(ordering: .relaxed)) is already running")
            case .stopped:
                throw ServerError("the server was shut down and cannot be started again")
            case .idle:
                let bound: ListeningSocket.Bound
                if let listener {
                    guard let taken = listener.take() else {
                        throw ServerError("the listener on port \(listener.port) was handed to another server already")
                    }
                    bound = taken
                } else {
                    bound = try ListeningSocket.open(host: configuration.host, port: configuration.port)
                }
                let daemon = try Daemon.start(configuration: configuration, bound: bound, context: context)
                boundPort.store(daemon.port, ordering: .relaxed)
                state = .running(daemon)
            }
        }
    }

    /// The bound TCP port (after start; the real one when configured with 0).
    public var port: Int {
        boundPort.load(ordering: .relaxed)
    }

    /// Number of requests currently being handled (from the request head until the response is sent).
    public var inFlightRequests: Int {
        context.inFlight.load(ordering: .relaxed)
    }

    /// Number of streamed responses being sent (from the response until the client has it all or went away).
    public var openStreams: Int {
        context.streams.count
    }

    /// The answer of deferred responses still pending when the grace period is over.
    private static let stopping = Response(status: 503, headers: ["Connection": "close", "Retry-After": "1"])

    /// Graceful stop: finish every open stream, stop accepting (quiesce), let in-flight requests finish up to
    /// `gracePeriod`, then stop the daemon. Idempotent.
    ///
    /// Open streams close (their `onClose` handlers run) and end once their queued bytes are sent; a stream returned
    /// while shutting down is closed at once. Responses sent while draining carry `Connection: close`. Deferred
    /// responses still pending when the grace period is over are answered 503.
    /// Blocks until the daemon has stopped; do not call it from a ``Responder`` (it would wait for its own request).
    public func shutdown(gracePeriod: Duration = .seconds(5)) {
        lifecycle.withLock { state in
            guard case .running(let daemon) = state else {
                state = .stopped
                return
            }
            context.draining.store(true, ordering: .relaxed)
            let finished = context.streams.closeAll { $0.finish() }
            if finished > 0 {
                context.logger.debug("finishing open streams", metadata: ["streams": "\(finished)"])
            }
            daemon.quiesce()
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: gracePeriod)
            while context.inFlight.load(ordering: .relaxed) > 0, clock.now < deadline {
                usleep(2_000)
            }
            if context.inFlight.load(ordering: .relaxed) > 0 {
                context.deferrals.closeAll { $0.complete(Self.stopping) }
                let answered = clock.now.advanced(by: .seconds(1))
                while context.inFlight.load(ordering: .relaxed) > 0, clock.now < answered {
                    usleep(2_000)
                }
            }
            let unfinished = context.inFlight.load(ordering: .relaxed)
            if unfinished > 0 {
                context.logger.warning(
                    "grace period over; closing connections with requests in flight",
                    metadata: ["requests": "\(unfinished)"]
                )
            }
            daemon.stop()
            context.accessLog?.stop()
            state = .stopped
        }
    }
}

/// Why the server could not start.
public struct ServerError: Error, CustomStringConvertible, Sendable {
    /// A sentence naming the address and the cause.
    public var description: String

    /// Creates an error with the given message.
    public init(_ description: String) {
        self.description = description
    }
}
