import Foundation
import Logging
import MicroHTTP
import Synchronization
import TabBarModel
import TabBarStore

/// The state the endpoint handlers share; the handlers themselves live in `APIHandlers+*.swift`.
final class APIHandlers: Sendable {
    let catalog: Catalog
    let adminKeys: AdminKeyring
    let userAuth: UserAuthenticator?
    let maxBodySize: Int
    /// `Cache-Control` of the default tab bar: revalidated at every use unless the operator chose a `max-age`.
    let publicCacheControl: String
    /// `Cache-Control` of per-user and admin representations: stored only by the caller's own cache, revalidated at
    /// every use, so a user's next read after a write, or after a version event, is never an older copy.
    let privateCacheControl = "private, no-cache"
    /// The default tab bar's `max-age` and `stale-while-revalidate` in seconds (0: none), which a coming
    /// `startsAt` / `endsAt` shortens.
    let cacheMaxAge: Int
    let staleWhileRevalidate: Int
    /// The trusted header holding the request's country, if the operator named one.
    let countryHeader: String?
    let openAPIDocument: Data
    /// The admin console's files, nil when the service serves no console.
    let console: AdminConsole?
    let logger: Logger
    /// Which other origins' pages may call the service (the server adds the fields; preflights are refused here).
    let crossOrigin: CrossOriginPolicy
    /// The Prometheus series, nil when metrics are off.
    let metrics: ServiceMetrics?
    /// Whether other replicas write to the store, so that a request may name what this one has not read yet.
    let storeIsShared: Bool
    private let shuttingDown = Mutex(false)

    init(
        catalog: Catalog, adminKeys: AdminKeyring, userAuth: UserAuthenticator?, maxBodySize: Int, cacheMaxAge: Int,
        staleWhileRevalidate: Int, countryHeader: String? = nil, crossOrigin: CrossOriginPolicy = CrossOriginPolicy(),
        metrics: ServiceMetrics? = nil, openAPIDocument: Data, console: AdminConsole? = nil, logger: Logger
    ) {
        self.metrics = metrics
        self.crossOrigin = crossOrigin
        self.catalog = catalog
        self.adminKeys = adminKeys
        self.userAuth = userAuth
        self.maxBodySize = maxBodySize
        publicCacheControl = Self.sharedCacheControl(maxAge: cacheMaxAge, staleWhileRevalidate: staleWhileRevalidate)
        self.cacheMaxAge = cacheMaxAge
        self.staleWhileRevalidate = staleWhileRevalidate
        self.countryHeader = countryHeader
        self.openAPIDocument = openAPIDocument
        self.console = console
        self.logger = logger
        storeIsShared = catalog.store.isShared
    }

    var store: any TabBarStore { catalog.store }

    /// `public, no-cache` for `maxAge` 0; else `public, max-age=N`, with `stale-while-revalidate=S` when `S` > 0.
    static func sharedCacheControl(maxAge: Int, staleWhileRevalidate: Int) -> String {
        guard maxAge > 0 else { return "public, no-cache" }
        guard staleWhileRevalidate > 0 else { return "public, max-age=\(maxAge)" }
        return "public, max-age=\(maxAge), stale-while-revalidate=\(staleWhileRevalidate)"
    }

    /// Makes `/readyz` fail from now on.
    func beginShutdown() {
        shuttingDown.withLock { $0 = true }
    }

    var isShuttingDown: Bool { shuttingDown.withLock { $0 } }

    /// The admin key the request presents, which must have `scope` (or a wider one): 401 without a known key, 403
    /// with a key of a narrower scope.
    @discardableResult
    func requireScope(_ scope: AdminScope, _ request: Request) throws -> AdminKey {
        let key: AdminKey
        switch adminKeys.authenticate(request.headers["Authorization"]) {
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

    /// The user a user endpoint acts for: the `{user}` path parameter, which must be the bearer token's subject
    /// when user authentication is configured; `me` stands for the token's subject.
    func authorizedUser(_ request: Request) throws -> String {
        let user = try user(
            pathUser: request.pathParameters["user"] ?? "", authorization: request.headers["Authorization"],
            verifying: true)
        guard let user else {
            throw APIError.userUnauthorized("the token could not be verified")
        }
        return user
    }

    /// The one rule deciding whom a user endpoint acts for, for the router's handlers and the answers from the
    /// request head alike. Throws what the endpoint answers (400, 401, 403). Without `verifying`, only a token
    /// verified before and still cached is taken: nil means the signature would have to be checked first.
    func user(pathUser: String, authorization: String?, verifying: Bool) throws -> String? {
        guard let userAuth else {
            if pathUser == "me" {
                throw APIError.unauthorized("/users/me needs user authentication, which this server does not have configured.")
            }
            return try Request.userID(pathUser)
        }
        let subject: String
        if verifying {
            switch userAuth.subject(authorization: authorization) {
            case .success(let verified): subject = verified
            case .failure(let failure):
                metrics?.authenticationFailed(who: "user", reason: failure.reason)
                throw APIError.userUnauthorized(failure.reason)
            }
        } else {
            guard let cached = userAuth.cachedSubject(authorization: authorization) else { return nil }
            subject = cached
        }
        guard Identifiers.isValidUser(subject) else {
            throw APIError.forbidden("The token's subject is not a valid user id.")
        }
        if pathUser == "me" { return subject }
        let user = try Request.userID(pathUser)
        guard user == subject else {
            metrics?.authenticationFailed(who: "user", reason: "token of another user")
            throw APIError.forbidden("The token does not belong to this user.")
        }
        return user
    }

    /// The live config the `{client}` path parameter names. A known client's id needs no check; for any other the
    /// id (400), then the `?locale=` query and the context parameters (400), are checked before the 404, as the
    /// handlers taking them one by one do.
    func requireLive(_ request: Request) throws -> LiveConfig {
        if let live = catalog.live(request.pathParameters["client"] ?? "") {
            return live
        }
        let client = try request.clientID()
        _ = try request.localeQuery()
        _ = try requestContext(request.queryItems, country: nil)
        throw APIError.unknownClient(client)
    }

    /// The live config of `client`, or 404.
    func requireLive(_ client: String) throws -> LiveConfig {
        guard let live = catalog.live(client) else { throw APIError.unknownClient(client) }
        return live
    }
}
