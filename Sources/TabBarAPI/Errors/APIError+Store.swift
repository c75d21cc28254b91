import TabBarStore

extension APIError {
    /// The answer to a store write that failed. The store's own reason names files, so it goes to the log only.
    init(_ error: StoreError) {
        switch error {
        case .revisionMismatch:
            self = .revisionMismatch
        case .invalidClientID:
            self = .invalidClient
        case .invalidDocument:
            self = .invalidDocument("The document cannot be stored.", [])
        case .recordTooLarge:
            self = APIError(
                status: 413, type: ProblemType.payloadTooLarge, title: "Payload too large",
                detail: "The customization is too large to store.")
        default:
            self = .unavailable("The store does not accept writes.")
        }
    }
}
