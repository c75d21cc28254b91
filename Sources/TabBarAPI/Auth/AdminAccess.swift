import MicroHTTP

/// What an admin endpoint lets in: a key of the keyring with the scope it needs.
struct AdminAccess: Sendable {
    let keys: AdminKeyring
    /// Where refused keys are counted, nil when metrics are off.
    let metrics: ServiceMetrics?

    /// The admin key the request presents, which must have `scope` (or a wider one): 401 without a known key, 403
    /// with a key of a narrower scope.
    @discardableResult
    func requireScope(_ scope: AdminScope, _ request: Request) throws -> AdminKey {
        let key: AdminKey
        switch keys.authenticate(request.headers["Authorization"]) {
        case .success(let found): key = found
        case .failure(let failure):
            metrics?.authenticationFailed(who: "admin", reason: failure.rawValue)
            switch failure {
            case .missing: throw APIError.unauthorized("This endpoint needs an admin bearer key.")
            case .unknown: throw APIError.unauthorized("The bearer token is not an admin key.")
            }
        }
        guard key.scope >= scope else {
            metrics?.authenticationFailed(who: "admin", reason: "insufficient scope")
            throw APIError.forbidden(
                "The admin key '\(key.name)' has the scope \(key.scope.rawValue); this needs \(scope.rawValue).")
        }
        return key
    }
}
