import MicroHTTP
import TabBarStore

/// A replica on a shared store answers a request that names a version or a revision newer than it holds (another
/// replica wrote it and its notice has not arrived) only after reading it from the store: a client that presents an
/// ETag it was given never gets an older revision from any replica (docs/ARCHITECTURE.md, "Several replicas").
extension APIHandlers {
    /// What to read through before answering.
    struct ReadThrough {
        var client: String
        /// The user whose customization is behind, if one is.
        var user: String?
    }

    /// What `request` must read through first; nil when this replica holds everything it names (always on a store
    /// of its own).
    func readThrough(for request: Request) -> ReadThrough? {
        readThrough(
            client: request.pathParameters["client"], version: request.pathParameters["version"],
            ifNoneMatch: request.headers["If-None-Match"], ifMatch: request.headers["If-Match"])
    }

    /// The same from a request's parts: the `{client}` and `{version}` path parameters and the values of its
    /// `If-None-Match` and `If-Match` headers.
    func readThrough(client: String?, version: String?, ifNoneMatch: String?, ifMatch: String?) -> ReadThrough? {
        guard storeIsShared, let client, ifNoneMatch != nil || ifMatch != nil || version != nil else { return nil }
        var claims = EntityTag.Claims()
        if let ifNoneMatch { claims.add(ifNoneMatch) }
        if let ifMatch { claims.add(ifMatch) }
        if let version = version.flatMap(Int.init) { claims.version = max(claims.version, version) }
        let versionBehind = claims.version > catalog.live(client)?.stored.version ?? 0
        let user = claims.revisions.first { user, revision in
            revision > store.customization(client: client, user: user)?.revision ?? 0
        }?.key
        guard versionBehind || user != nil else { return nil }
        return ReadThrough(client: client, user: user)
    }
}
