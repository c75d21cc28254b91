import Foundation
import Logging
import Synchronization

/// One `info` line per finished request: method, route, status, duration and request id, written when libmicrohttpd
/// reports the request complete (so a streamed or deferred answer is logged once, when it ends).
///
/// The route is the pattern the ``Responder`` names for the request (``Responder/route(method:path:)``), not the
/// path: ids in paths stay out of the log. The request id is the client's `X-Request-ID` when it sent a usable one
/// (so an app can find its request), else one made here: a random prefix per process and a sequence number.
final class AccessLog: Sendable {
    private let logger: Logger
    private let prefix: String
    private let sequence = Atomic<UInt64>(0)

    init(logger: Logger) {
        self.logger = logger
        self.prefix = String(UInt32.random(in: .min ... .max), radix: 16)
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

    /// Writes the line of a finished request; `outcome` names how it ended when it did not complete normally.
    func record(_ state: RequestState, route: String?, outcome: String?) {
        let elapsed = ContinuousClock.now - state.started
        let (seconds, attoseconds) = elapsed.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        var metadata: Logger.Metadata = [
            "method": "\(state.request.method)",
            "route": "\(route ?? "-")",
            "status": state.status.map { "\($0)" } ?? "-",
            "duration_ms": "\(Double(microseconds) / 1000)",
            "request_id": "\(state.requestID ?? "-")",
        ]
        if let outcome {
            metadata["outcome"] = "\(outcome)"
        }
        logger.info("request", metadata: metadata)
    }
}
