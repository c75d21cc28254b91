import Foundation
import MicroHTTP
import TabBarModel

extension APIHandlers {
    /// `GET /v1/clients`: every client with its live version.
    func listClients(_ request: Request) throws -> Response {
        try requireAdmin(request)
        let clients = catalog.clients().map {
            ClientSummary(client: $0.stored.client, version: $0.stored.version, publishedAt: $0.stored.publishedAt)
        }
        return .json(ClientList(clients: clients))
    }

    /// `GET /v1/clients/{client}/config`: the live source document with its version.
    func getConfig(_ request: Request) throws -> Response {
        try requireAdmin(request)
        return configResponse(try requireLive(try request.clientID()), request)
    }

    /// One config version as a cacheable response (or 304 when `If-None-Match` names it).
    func configResponse(_ version: LiveConfig, _ request: Request) -> Response {
        let validators = CacheValidators(
            etag: EntityTag.config(version: version.stored.version), cacheControl: privateCacheControl,
            variesByLanguage: false)
        if let notModified = validators.notModified(request) { return notModified }
        return validators.jsonResponse(CanonicalJSON.encode(version.envelope))
    }

    /// `PUT /v1/clients/{client}/config`: validates and publishes a new version; honours `If-Match` and `?note=`.
    func putConfig(_ request: Request) throws -> Response {
        try requireAdmin(request)
        let client = try request.clientID()
        let note = try request.noteQuery()
        let body = try request.jsonBody()
        let config: TabBarConfig
        switch TabBarConfig.decode(json: body) {
        case .success(let decoded): config = decoded
        case .failure(.malformedJSON(let detail)): throw APIError.malformed(detail)
        case .failure(.invalid(let problems)):
            throw APIError.invalidDocument("The config document is not valid; nothing was published.", problems)
        }
        return try publish(client: client, config: config, note: note, rollbackOf: nil, request: request)
    }

    /// `DELETE /v1/clients/{client}/config`: deletes the client, its versions and its users' customizations.
    func deleteConfig(_ request: Request) throws -> Response {
        try requireAdmin(request)
        let client = try request.clientID()
        guard try catalog.delete(client: client) else { throw APIError.unknownClient(client) }
        return .noContent
    }

    /// Publishes after checking the request's `If-Match` against the live version; answers 201 with the envelope.
    func publish(
        client: String, config: TabBarConfig, note: String?, rollbackOf: Int?, request: Request
    ) throws -> Response {
        var expectedVersion: Int?
        if let ifMatch = request.headers["If-Match"] {
            let current = catalog.live(client)?.stored.version
            guard EntityTag.matchHolds(ifMatch, current: current.map { EntityTag.config(version: $0) }) else {
                throw APIError.revisionMismatch
            }
            expectedVersion = current ?? 0
        }
        let live = try catalog.publish(
            client: client, config: config, note: note, rollbackOf: rollbackOf, expectedVersion: expectedVersion)
        var response = Response.json(live.envelope, status: 201)
        response.headers.add(name: "ETag", value: EntityTag.config(version: live.stored.version))
        response.headers.add(name: "Location", value: "/v1/clients/\(client)/config/versions/\(live.stored.version)")
        return response
    }
}
