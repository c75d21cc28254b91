import Logging
import MicroHTTP
import TabBarStore

/// Turns what a handler threw, or a deferred write reported, into problem+json, logging what is not the client's
/// mistake.
struct ErrorResponder: Sendable {
    let store: any TabBarStore
    let logger: Logger

    /// The problem+json answer for `error`.
    func response(for error: any Error, request: Request) -> Response {
        switch error {
        case let error as APIError:
            return .problem(error, for: request)
        case let error as StoreError:
            if error.isUnavailable {
                logger.error("store refuses writes", metadata: ["reason": "\(store.unavailableReason ?? "closed")"])
            }
            return .problem(APIError(error), for: request)
        default:
            logger.error("request failed", metadata: ["error": "\(error)", "path": "\(request.path)"])
            if store.unavailableReason != nil {
                return .problem(.unavailable("The store does not accept writes."), for: request)
            }
            return .problem(.internalError, for: request)
        }
    }
}
