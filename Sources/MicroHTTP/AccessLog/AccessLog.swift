import Foundation
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One `info` line per finished request: method, route, status, duration, body bytes and request id, written when
/// libmicrohttpd reports the request complete (so a streamed or deferred answer is logged once, when it ends).
///
/// The route is the pattern the ``Responder`` names for the request (``Responder/route(method:path:)``), not the
/// path: ids in paths (user ids among them) stay out of the log. The request id is the request's
/// (``RequestIdentifier``), echoed to the client in `X-Request-Id`.
///
/// The lines have the format of the log handler `tabconfig` logs with (``LogFormat``: swift-log's `StreamLogHandler`
/// text, or one JSON object a line) and go to standard error, but they are formatted here into one buffer and written
/// by a background thread in batches, at most ``flushDelay`` after they were added. Through `Logger.info` and
/// `StreamLogHandler`, one formatted and written line per request cut the default tab bar's requests/s to 0.47× of
/// the build without a log (Benchmarks/reads.py, release build, 2 cores). Every field written is a token that
/// needs no escaping in either format (methods are HTTP tokens, checked; routes are the router's patterns; request
/// ids are well-formed by construction).
final class AccessLog: Sendable {
    /// How long a line may wait in the buffer before it is written.
    static let flushDelay: Duration = .milliseconds(50)

    private let label: String
    private let format: LogFormat
    private let buffer: AccessLogBuffer

    /// An access log in the format of `logger`'s label, or nil when `logger` does not log at `info`.
    init?(logger: Logger, format: LogFormat) {
        guard logger.logLevel <= .info else { return nil }
        label = logger.label
        self.format = format
        buffer = AccessLogBuffer(descriptor: STDERR_FILENO, flushDelay: Self.flushDelay, format: format)
    }

    /// Adds the line of a finished request that took `duration`; `outcome` names how it ended when it did not
    /// complete normally.
    func record(_ state: RequestState, route: String?, duration: Duration, outcome: String?) {
        let (seconds, attoseconds) = duration.components
        let microseconds = Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
        let status = state.status
        switch format {
        case .text:
            buffer.append { line in
                // Metadata keys in sorted order, as StreamLogHandler prints them.
                line.append(" info ")
                line.append(label)
                line.append(": bytes=")
                line.append(state.bytesSent)
                line.append(" duration_ms=")
                line.appendMilliseconds(microseconds: microseconds)
                line.append(" method=")
                line.appendToken(state.request.method)
                if let outcome {
                    line.append(" outcome=")
                    line.append(outcome)
                }
                line.append(" request_id=")
                line.append(state.requestID)
                line.append(" route=")
                line.appendToken(route ?? "-")
                line.append(" status=")
                if let status { line.append(status) } else { line.append("-") }
                line.append(" [MicroHTTP] request\n")
            }
        case .json:
            buffer.append { line in
                line.append(",\"level\":\"info\",\"label\":\"")
                line.appendToken(label)
                line.append("\",\"source\":\"MicroHTTP\",\"message\":\"request\",\"method\":\"")
                line.appendToken(state.request.method)
                line.append("\",\"route\":")
                if let route {
                    line.append("\"")
                    line.appendToken(route)
                    line.append("\"")
                } else {
                    line.append("null")
                }
                line.append(",\"status\":")
                if let status { line.append(status) } else { line.append("null") }
                line.append(",\"duration_ms\":")
                line.appendMilliseconds(microseconds: microseconds)
                line.append(",\"bytes\":")
                line.append(state.bytesSent)
                line.append(",\"request_id\":\"")
                line.append(state.requestID)
                line.append("\"")
                if let outcome {
                    line.append(",\"outcome\":\"")
                    line.append(outcome)
                    line.append("\"")
                }
                line.append("}\n")
            }
        }
    }

    /// Writes what is buffered and stops the writer thread; later lines are dropped.
    func stop() {
        buffer.stop()
    }
}

/// How log lines are written: swift-log's `StreamLogHandler` text, or one JSON object a line.
public enum LogFormat: String, Sendable, Equatable, CaseIterable {
    /// `2026-11-24T10:15:02+0000 info tabconfig: key=value [Module] message`
    case text
    /// `{"timestamp":"2026-11-24T10:15:02.123Z","level":"info","label":"tabconfig","message":"…","key":"value"}`
    case json
}
