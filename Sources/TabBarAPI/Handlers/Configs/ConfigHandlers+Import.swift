import Foundation
import MicroHTTP
import TabBarModel
import TabBarStore

extension ConfigHandlers {
    /// `POST /v1/import/plist?client=…`: publishes a config converted from an `ApplicationHierarchy.plist` body.
    func importPlist(_ request: Request) throws -> Response {
        let key = try admin.requireScope(.publish, request)
        guard let client = request.query("client") else {
            throw APIError.invalidParameter("client", "the query parameter client is required")
        }
        guard Identifiers.isValidClient(client) else {
            throw APIError.invalidClient
        }
        let note = try request.noteQuery()
        if let contentType = request.headers["Content-Type"] {
            let mediaType = contentType.split(separator: ";", maxSplits: 1)[0]
                .trimmingCharacters(in: .whitespaces).lowercased()
            let accepted = ["application/x-plist", "application/xml", "text/xml", "application/octet-stream"]
            guard accepted.contains(mediaType) else {
                throw APIError(
                    status: 415, type: ProblemType.unsupportedMediaType, title: "Unsupported media type",
                    detail: "Expected a property list (application/x-plist), got '\(contentType)'.")
            }
        }
        guard !request.body.isEmpty else { throw APIError.malformed("The request body is empty; a property list is expected.") }
        switch TabBarConfig.importApplicationHierarchy(request.body) {
        case .success(let config):
            return try publish(
                client: client, config: config, note: note ?? "imported from ApplicationHierarchy.plist",
                rollbackOf: nil, action: .import, key: key, request: request)
        case .failure(.malformed(let detail)):
            throw APIError.malformed(detail)
        case .failure(.invalid(let problems)):
            throw APIError.invalidDocument("The property list does not convert into a valid config; nothing was published.", problems)
        }
    }
}
