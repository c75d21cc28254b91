import Foundation
import MicroHTTP
import TabBarModel
import TabBarStore

extension APIHandlers {
    /// `GET /v1/clients/{client}/config/versions`: the kept versions, newest first.
    func listVersions(_ request: Request) throws -> Response {
        try requireAdmin(request)
        let client = try request.clientID()
        let live = try requireLive(client)
        let versions = store.versionHistory(client: client).map {
            VersionSummary(
                version: $0.version, publishedAt: $0.publishedAt, note: $0.note, rollbackOf: $0.rollbackOf,
                size: $0.size)
        }
        return .json(VersionList(client: client, live: live.stored.version, versions: versions))
    }

    /// `GET /v1/clients/{client}/config/versions/{version}`: one kept version with its document.
    func getVersion(_ request: Request) throws -> Response {
        try requireAdmin(request)
        let client = try request.clientID()
        let number = try request.versionNumber()
        _ = try requireLive(client)
        return configResponse(try storedVersion(client: client, number: number), request)
    }

    /// `POST /v1/clients/{client}/config/rollback`: publishes a copy of an older version as the new live one.
    func rollback(_ request: Request) throws -> Response {
        try requireAdmin(request)
        let client = try request.clientID()
        _ = try requireLive(client)
        let body = try RollbackRequest.decode(try request.jsonBody())
        let target = try storedVersion(client: client, number: body.version)
        return try publish(
            client: client, config: target.config, note: body.note ?? "rollback to version \(body.version)",
            rollbackOf: body.version, request: request)
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

/// The body of `POST …/config/rollback`: `{"version": n, "note": "…"}`.
struct RollbackRequest: Decodable {
    var version: Int
    var note: String?

    static func decode(_ body: Data) throws -> RollbackRequest {
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            throw APIError.malformed("The request body is not JSON.")
        }
        guard let fields = object as? [String: Any] else {
            throw APIError.invalidDocument(
                "The rollback request is not valid.", [ValidationProblem(pointer: "", message: "must be an object")])
        }
        var problems = fields.keys.sorted().filter { $0 != "version" && $0 != "note" }.map {
            ValidationProblem(pointer: "/\(JSONPointerEscape.escape($0))", message: "unknown field")
        }
        let decoded = try? JSONDecoder().decode(RollbackRequest.self, from: body)
        if let decoded {
            if decoded.version < 1 {
                problems.append(ValidationProblem(pointer: "/version", message: "must be a positive integer"))
            }
        } else {
            problems.append(
                ValidationProblem(
                    pointer: "", message: "must hold \"version\" (a positive integer) and optionally \"note\" (a string)"))
        }
        if let note = decoded?.note, note.count > 256 {
            problems.append(ValidationProblem(pointer: "/note", message: "has at most 256 characters"))
        }
        guard problems.isEmpty, let decoded else {
            throw APIError.invalidDocument("The rollback request is not valid.", problems)
        }
        return decoded
    }
}

/// RFC 6901 escaping of one reference token.
enum JSONPointerEscape {
    static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
