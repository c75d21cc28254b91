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
        let live = try requireLive(try request.clientID())
        return .json(envelope(live))
    }

    /// `PUT /v1/clients/{client}/config`: validates and publishes a new version.
    func putConfig(_ request: Request) throws -> Response {
        try requireAdmin(request)
        let client = try request.clientID()
        let body = try request.jsonBody()
        let config: TabBarConfig
        switch TabBarConfig.decode(json: body) {
        case .success(let decoded): config = decoded
        case .failure(.malformedJSON(let detail)): throw APIError.malformed(detail)
        case .failure(.invalid(let problems)):
            throw APIError.invalidDocument("The config document is not valid; nothing was published.", problems)
        }
        let live = try catalog.publish(client: client, config: config, note: nil)
        return .json(envelope(live), status: 201)
    }

    /// `DELETE /v1/clients/{client}/config`: deletes the client, its versions and its users' customizations.
    func deleteConfig(_ request: Request) throws -> Response {
        try requireAdmin(request)
        let client = try request.clientID()
        guard try catalog.delete(client: client) else { throw APIError.unknownClient(client) }
        return .noContent
    }

    private func envelope(_ live: LiveConfig) -> ConfigEnvelope {
        ConfigEnvelope(
            client: live.stored.client, version: live.stored.version, publishedAt: live.stored.publishedAt,
            config: live.config)
    }
}
