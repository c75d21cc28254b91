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
    /// of its own). The client is the `{client}` path parameter, else what `clientInBody` reads from the body (an
    /// OFREP evaluation's context), asked only for a conditional request on a shared store.
    func readThrough(for request: Request, clientInBody: ((Request) -> String?)? = nil) -> ReadThrough? {
        guard store.isShared else { return nil }
        let ifNoneMatch = request.headers["If-None-Match"]
        let ifMatch = request.headers["If-Match"]
        var client = request.pathParameters["client"]
        if client == nil, ifNoneMatch != nil || ifMatch != nil, let clientInBody {
            client = clientInBody(request)
        }
        return readThrough(
            client: client, version: request.pathParameters["version"], ifNoneMatch: ifNoneMatch, ifMatch: ifMatch)
    }

    /// The same from a request's parts: the `{client}` and `{version}` path parameters and the values of its
    /// `If-None-Match` and `If-Match` headers.
    func readThrough(client: String?, version: String?, ifNoneMatch: String?, ifMatch: String?) -> ReadThrough? {
        guard store.isShared, let client, ifNoneMatch != nil || ifMatch != nil || version != nil else { return nil }
        var claims = EntityTag.Claims()
        if let ifNoneMatch { claims.add(ifNoneMatch) }
        if let ifMatch { claims.add(ifMatch) }
        if let version = version.flatMap(Int.init) { claims.version = max(claims.version, version) }
        let versionBehind = claims.version > live(client)?.stored.version ?? 0
        let user = claims.revisions.first { user, revision in
            revision > store.customization(client: client, user: user)?.revision ?? 0
        }?.key
        guard versionBehind || user != nil else { return nil }
        return ReadThrough(client: client, user: user)
    }
}
