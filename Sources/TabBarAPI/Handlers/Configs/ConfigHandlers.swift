import Foundation
import Logging
import MicroHTTP
import TabBarModel
import TabBarStore

/// Publishing configs, their history and previews (admin keys): the catalog's writes, each with its audit entry.
struct ConfigHandlers: Sendable {
    let catalog: Catalog
    let admin: AdminAccess
    /// Evaluates a preview as `…/tabs/explain` evaluates the live config.
    let explainer: Explainer
    let logger: Logger

    var store: any TabBarStore { catalog.store }

    /// `GET /v1/clients`: every client with its live version.
    func listClients(_ request: Request) throws -> Response {
        try admin.requireScope(.read, request)
        let clients = catalog.clients().map {
            ClientSummary(client: $0.stored.client, version: $0.stored.version, publishedAt: $0.stored.publishedAt)
        }
        return .json(ClientList(clients: clients))
    }

    /// `GET /v1/clients/{client}/config`: the live source document with its version, prepared once per version in
    /// each content coding.
    func getConfig(_ request: Request) throws -> Response {
        try admin.requireScope(.read, request)
        return try catalog.requireLive(try request.clientID()).configAnswer().answer(request)
    }

    /// One config version as a cacheable response (or 304 when `If-None-Match` names it), identity only: a version
    /// no longer live is read from the store per request, and its answer is not kept to be compressed once.
    func configResponse(_ version: LiveConfig, _ request: Request) -> Response {
        let validators = CacheValidators(
            etag: EntityTag.config(version: version.stored.version), cacheControl: CachePolicy.privateCacheControl,
            variesByLanguage: false)
        if let notModified = validators.notModified(request) { return notModified }
        return validators.jsonResponse(CanonicalJSON.encode(version.envelope))
    }

    /// `PUT /v1/clients/{client}/config`: validates and publishes a new version; honours `If-Match`,
    /// `If-None-Match` and `?note=`. With `?dryRun=true` it checks all the same and answers what the publish would
    /// change (`DryRunBody`), publishing nothing.
    func putConfig(_ request: Request) throws -> Response {
        // A dry run publishes nothing: a read key may make one (a CI job checking a change before review).
        let key = try admin.requireScope((try? request.dryRunQuery()) == true ? .read : .publish, request)
        let client = try request.clientID()
        let note = try request.noteQuery()
        let dryRun = try request.dryRunQuery()
        let config = try publishableConfig(request)
        if dryRun {
            return try previewPublish(client: client, config: config, request: request)
        }
        return try publish(
            client: client, config: config, note: note, rollbackOf: nil, action: .publish, key: key, request: request)
    }

    /// The request's body as a config document: 400 when it is not JSON, 422 with every problem when it is not a
    /// valid document (`detail` saying what did not happen).
    func publishableConfig(
        _ request: Request, detail: String = "The config document is not valid; nothing was published."
    ) throws -> TabBarConfig {
        switch TabBarConfig.decode(json: try request.jsonBody()) {
        case .success(let config): return config
        case .failure(.malformedJSON(let detail)): throw APIError.malformed(detail)
        case .failure(.invalid(let problems)):
            throw APIError.invalidDocument(detail, problems)
        }
    }

    /// A dry run: the request's conditions checked against the live version as a publish checks them, and the diff
    /// against it. Nothing is stored, published or sent to event subscribers.
    func previewPublish(client: String, config: TabBarConfig, request: Request) throws -> Response {
        let live = catalog.live(client)
        _ = try publishCondition(request, current: live?.stored.version)
        let diff = ConfigDiff(live: live?.config, proposed: config)
        return .json(
            DryRunBody(
                client: client, liveVersion: live?.stored.version ?? 0,
                liveETag: live.map { EntityTag.config(version: $0.stored.version) }, diff: diff,
                coverage: catalog.buildCoverage(client: client, config: config)))
    }

    /// `POST /v1/clients/{client}/config/preview?<context>[&user=…]` (admin): a document not published, validated as
    /// a publish validates it (the same 400 and 422) and resolved for the context as `…/tabs/explain` resolves the
    /// live one, with the user's saved order merged in when `user` is given. Nothing is stored. The answer's
    /// `version` is the one a publish made now would get. The admin console's live preview.
    func previewConfig(_ request: Request) throws -> Response {
        try admin.requireScope(.read, request)
        let client = try request.clientID()
        let query = try explainer.query(request)
        let config = try publishableConfig(request, detail: "The config document is not valid.")
        let version = (catalog.live(client)?.stored.version ?? 0) + 1
        return .json(
            explainer.explain(
                config, targeting: TargetingPlan(config: config), locales: LocaleIndex(config.availableLocales),
                client: client, version: version, query: query))
    }

    /// `DELETE /v1/clients/{client}/config`: deletes the client, its versions and its users' customizations.
    func deleteConfig(_ request: Request) throws -> Response {
        let key = try admin.requireScope(.admin, request)
        let client = try request.clientID()
        let audit = AuditRecord.deleting(live: catalog.live(client), key: key, request: request)
        guard try catalog.delete(client: client, audit: audit) else { throw APIError.unknownClient(client) }
        return .noContent
    }

    /// Publishes after checking the request's conditions against the live version (`publishCondition`), with the
    /// audit entry of `action` by `key`; answers 201 with the envelope and what the registered builds cannot open of
    /// it (`PublishBody`). Every publish makes a new version, also of a document equal to the live one.
    func publish(
        client: String, config: TabBarConfig, note: String?, rollbackOf: Int?, action: AuditAction, key: AdminKey,
        request: Request
    ) throws -> Response {
        let current = catalog.live(client)
        let expectedVersion = try publishCondition(request, current: current?.stored.version)
        let audit = AuditRecord.publishing(config, action: action, live: current, key: key, request: request)
        let live = try catalog.publish(
            client: client, config: config, note: note, rollbackOf: rollbackOf, expectedVersion: expectedVersion,
            audit: audit)
        let body = PublishBody(
            envelope: live.envelope, coverage: catalog.buildCoverage(client: client, config: live.config))
        var response = Response.json(body, status: 201)
        response.headers.add(name: "ETag", value: EntityTag.config(version: live.stored.version))
        response.headers.add(name: "Location", value: "/v1/clients/\(client)/config/versions/\(live.stored.version)")
        return response
    }

    /// The live version a publish must replace, from the request's conditions (RFC 9110 §13.1) against `current`,
    /// the live version (nil when there is none): `If-Match` must name it (or be `*` with one live), and
    /// `If-None-Match` must not (`*`: there must be none). 412 when a condition fails; else the version for the
    /// store's compare-and-set (0: none), or nil when the request sets no condition.
    func publishCondition(_ request: Request, current: Int?) throws -> Int? {
        let currentTag = current.map { EntityTag.config(version: $0) }
        var expectedVersion: Int?
        if let ifMatch = request.headers["If-Match"] {
            guard EntityTag.matchHolds(ifMatch, current: currentTag) else { throw APIError.revisionMismatch }
            expectedVersion = current ?? 0
        }
        if let ifNoneMatch = request.headers["If-None-Match"] {
            let named = EntityTag.list(ifNoneMatch).map(EntityTag.withoutCoding).joined(separator: ", ")
            if let currentTag, EntityTag.noneMatchHits(named, currentTag) { throw APIError.revisionMismatch }
            if current == nil, EntityTag.list(ifNoneMatch).contains("*") { expectedVersion = 0 }
        }
        return expectedVersion
    }
}
