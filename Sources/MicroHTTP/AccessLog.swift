import Foundation
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One `info` line per finished request: method, route, status, duration and request id, written when libmicrohttpd
/// reports the request complete (so a streamed or deferred answer is logged once, when it ends).
///
/// The route is the pattern the ``Responder`` names for the request (``Responder/route(method:path:)``), not the
/// path: ids in paths stay out of the log. The request id is the client's `X-Request-ID` when it sent a usable one
/// (so an app can find its request), else one made here: a random prefix per process and a sequence number.
///
/// The lines have the format of swift-log's `StreamLogHandler` (which `tabconfig` logs with) and go to standard error,
/// but they are formatted here into one buffer and written by a background thread in batches, at most
/// ``flushDelay`` after they were added. Through `Logger.info` and `StreamLogHandler`, one formatted and written
/// line per request cut the default tab bar's requests/s to 0.47× of the build without a log (Benchmarks/reads.sh,
/// release build, 2 cores).
final class AccessLog: Sendable {
    /// How long a line may wait in the buffer before it is written.
    static let flushDelay: Duration = .milliseconds(50)

    private let label: String
    private let prefix: String
    private let sequence = Atomic<UInt64>(0)
    private let buffer: AccessLogBuffer

    /// An access log in the format of `logger`'s label, or nil when `logger` does not log at `info`.
    init?(logger: Logger) {
        guard logger.logLevel <= .info else { return nil }
        label = logger.label
        prefix = String(UInt32.random(in: .min ... .max), radix: 16)
        buffer = AccessLogBuffer(descriptor: STDERR_FILENO, flushDelay: Self.flushDelay)
    }

    /// The request id for a request that sent `clientValue` as `X-Request-ID`: that value when it is 1 to 128
    /// visible ASCII characters, else a new one.
    func requestID(clientValue: String?) -> String {
        if let clientValue, (1...128).contains(clientValue.utf8.count),
            clientValue.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        {
            return clientValue
        }
        let number = sequence.add(1, ordering: .relaxed).newValue
        return prefix + "-" + String(number, radix: 16)
    }

    /// Adds the line of a finished request; `outcome` names how it ended when it did not complete normally.
    func record(_ state: RequestState, route: String?, outcome: String?) {
        let (seconds, attoseconds) = (ContinuousClock.now - state.started).components
        let microseconds = Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
        buffer.append { line in
            // Metadata keys in sorted order, as StreamLogHandler prints them.
            line.append(" info ")
            line.append(label)
            line.append(": duration_ms=")
            line.appendMilliseconds(microseconds: microseconds)
            line.append(" method=")
            line.append(state.request.method)
            if let outcome {
                line.append(" outcome=")
                line.append(outcome)
            }
            line.append(" request_id=")
            line.append(state.requestID ?? "-")
            line.append(" route=")
            line.append(route ?? "-")
            line.append(" status=")
            if let status = state.status { line.append(status) } else { line.append("-") }
            line.append(" [MicroHTTP] request\n")
        }
    }

    /// Writes what is buffered and stops the writer thread; later lines are dropped.
    func stop() {
        buffer.stop()
    }
}
