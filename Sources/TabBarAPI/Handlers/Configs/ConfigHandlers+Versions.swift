import Foundation
import MicroHTTP
import TabBarModel
import TabBarStore

extension ConfigHandlers {
    /// `GET /v1/clients/{client}/config/versions`: the kept versions, newest first.
    func listVersions(_ request: Request) throws -> Response {
        try admin.requireScope(.read, request)
        let client = try request.clientID()
        let live = try catalog.requireLive(client)
        let versions = store.versionHistory(client: client).map {
            VersionSummary(
                version: $0.version, publishedAt: $0.publishedAt, note: $0.note, rollbackOf: $0.rollbackOf,
                size: $0.size)
        }
        return .json(VersionList(client: client, live: live.stored.version, versions: versions))
    }

    /// `GET /v1/clients/{client}/config/versions/{version}`: one kept version with its document.
    func getVersion(_ request: Request) throws -> Response {
        try admin.requireScope(.read, request)
        let client = try request.clientID()
        let number = try request.versionNumber()
        _ = try catalog.requireLive(client)
        return configResponse(try storedVersion(client: client, number: number), request)
    }

    /// `POST /v1/clients/{client}/config/rollback`: publishes a copy of an older version as the new live one.
    func rollback(_ request: Request) throws -> Response {
        let key = try admin.requireScope(.publish, request)
        let client = try request.clientID()
        _ = try catalog.requireLive(client)
        let body: RollbackRequest
        switch RollbackRequest.decode(json: try request.jsonBody()) {
        case .success(let decoded): body = decoded
        case .failure(.malformedJSON): throw APIError.malformed("The request body is not JSON.")
        case .failure(.invalid(let problems)): throw APIError.invalidDocument("The rollback request is not valid.", problems)
        }
        let target = try storedVersion(client: client, number: body.version)
        return try publish(
            client: client, config: target.config, note: body.note ?? "rollback to version \(body.version)",
            rollbackOf: body.version, action: .rollback, key: key, request: request)
    }

    private func storedVersion(client: String, number: Int) throws -> LiveConfig {
        guard let stored = store.version(client: client, number: number) else {
            throw APIError.notFound("Client '\(client)' has no version \(number) (unknown or pruned).")
        }
        guard case .success(let config) = TabBarConfig.decode(json: stored.document) else {
            logger.error("a stored version does not decode", metadata: ["client": "\(client)", "version": "\(number)"])
            throw APIError.internalError
        }
        return LiveConfig(stored: stored, config: config)
    }
}
