import MicroHTTP
import TabBarStore

extension APIHandlers {
    /// The problem+json answer for an error a handler threw or a deferred write reported.
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
