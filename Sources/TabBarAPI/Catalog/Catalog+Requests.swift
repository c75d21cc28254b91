import MicroHTTP
import TabBarStore

/// What a request needs of the catalog before a handler answers it: the live config it names, and on a shared store
/// what to read first. A replica on a shared store answers a request that names a version or a revision newer than
/// it holds (another replica wrote it and its notice has not arrived) only after reading it from the store: a client
/// that presents an ETag it was given never gets an older revision from any replica (docs/design/stores.md,
/// "The PostgreSQL store").
extension Catalog {
    /// What to read through before answering.
    struct ReadThrough {
        var client: String
        /// The user whose customization is behind, if one is.
        var user: String?
    }

    /// The live config the `{client}` path parameter names. A known client's id needs no check; for any other the
    /// id (400), then the `?locale=` query and the context parameters (400), are checked before the 404, as the
    /// handlers taking them one by one do.
    func requireLive(_ request: Request) throws -> LiveConfig {
        if let live = live(request.pathParameters["client"] ?? "") {
            return live
        }
        let client = try request.clientID()
        _ = try request.localeQuery()
        _ = try ContextReader.context(query: request.queryItems, country: nil)
        throw APIError.unknownClient(client)
    }

    /// The live config of `client`, or 404.
    func requireLive(_ client: String) throws -> LiveConfig {
        guard let live = live(client) else { throw APIError.unknownClient(client) }
        return live
    }

    /// What `request` must read through first; nil when this replica holds everything it names (always on a store
    /// of its own). `client` is the client it concerns (the `{client}` path parameter, or an OFREP evaluation's),
    /// `user` the user it acts for once authenticated: the revisions its tags name are read through for that user
    /// only, so that a caller cannot make a replica query the store for users it is not.
    func readThrough(for request: Request, client: String?, user: String?) -> ReadThrough? {
        readThrough(
            client: client, version: request.pathParameters["version"], ifNoneMatch: request.headers["If-None-Match"],
            ifMatch: request.headers["If-Match"], user: user)
    }

    /// The same from a request's parts: the `{client}` and `{version}` path parameters, the values of its
    /// `If-None-Match` and `If-Match` headers, and the user it acts for.
    func readThrough(
        client: String?, version: String?, ifNoneMatch: String?, ifMatch: String?, user: String?
    ) -> ReadThrough? {
        guard store.isShared, let client, ifNoneMatch != nil || ifMatch != nil || version != nil else { return nil }
        var claims = EntityTag.Claims()
        if let ifNoneMatch { claims.add(ifNoneMatch) }
        if let ifMatch { claims.add(ifMatch) }
        if let version = version.flatMap(Int.init) { claims.version = max(claims.version, version) }
        let versionBehind = claims.version > live(client)?.stored.version ?? 0
        let userBehind = user.flatMap { user in
            claims.revisions[user].map { $0 > store.customization(client: client, user: user)?.revision ?? 0 }
        } ?? false
        guard versionBehind || userBehind else { return nil }
        return ReadThrough(client: client, user: userBehind ? user : nil)
    }
}
