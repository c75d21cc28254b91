import Foundation
import Logging
import Synchronization

/// What the libmicrohttpd callbacks need to reach: the responder, the limits, the logger and the counters.
final class ServerContext: Sendable {
    let responder: any Responder
    let logger: Logger
    let maxBodySize: Int
    /// Requests whose per-request state exists (first access-handler call until the completion callback).
    let inFlight = Atomic<Int>(0)
    /// Set once shutdown begins: responses then ask the client to close the connection.
    let draining = Atomic<Bool>(false)
    /// The streams of streamed responses being sent.
    let streams = ConnectionRegistry<ResponseStream>()
    /// The deferred responses suspended connections wait for.
    let deferrals = ConnectionRegistry<DeferredResponse>()
    /// The request-head deadline of every open connection.
    let deadlines: ConnectionDeadlines
    /// The latest message libmicrohttpd logged, to explain a failed start.
    let lastDaemonMessage = Mutex<String?>(nil)
    /// The line per request, when ``Server/Configuration/accessLog`` is on.
    let accessLog: AccessLog?
    /// Gives each request its id.
    let requestIDs = RequestIdentifier()
    /// Which other origins' pages may read the responses.
    let crossOrigin: CrossOriginPolicy
    /// Told about every request when it ends.
    let requestObserver: (any RequestObserver)?

    init(responder: any Responder, logger: Logger, configuration: Server.Configuration) {
        self.deadlines = ConnectionDeadlines(headTimeout: .seconds(max(configuration.requestHeadTimeout, 0)))
        self.accessLog = configuration.accessLog ? AccessLog(logger: logger, format: configuration.logFormat) : nil
        self.crossOrigin = configuration.crossOrigin
        self.requestObserver = configuration.requestObserver
        self.responder = responder
        self.logger = logger
        self.maxBodySize = max(0, configuration.maxBodySize)
    }

    /// How many bytes past the limit a rejected body may still send before the connection is dropped.
    var discardLimit: Int {
        let base = max(maxBodySize, 64 * 1024)
        return base > Int.max / 8 ? Int.max : base * 8
    }

    /// Whether a declared `Content-Length` exceeds the body limit.
    func exceedsLimit(contentLength: String) -> Bool {
        let digits = contentLength.withoutOptionalWhitespace
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return false
        }
        guard let length = UInt64(digits) else {
            return true
        }
        return length > UInt64(maxBodySize)
    }

    /// The responder's answer for a complete request, or for a rejected one.
    func answer(_ state: RequestState) -> Response {
        if let rejection = state.rejection {
            logger.debug(
                "request rejected",
                metadata: ["method": "\(state.request.method)", "path": "\(state.request.path)", "status": "\(rejection.status)"]
            )
            return responder.respond(to: rejection, for: state.request)
        }
        return responder.respond(to: state.request)
    }
}
