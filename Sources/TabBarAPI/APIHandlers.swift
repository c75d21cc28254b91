import Foundation
import Logging
import MicroHTTP
import Synchronization
import TabBarStore

/// The state the endpoint handlers share; the handlers themselves live in `APIHandlers+*.swift`.
final class APIHandlers: Sendable {
    let catalog: Catalog
    let adminToken: AdminToken
    let maxBodySize: Int
    let cacheMaxAge: Int
    let openAPIDocument: Data
    let logger: Logger
    private let shuttingDown = Mutex(false)

    init(
        catalog: Catalog, adminToken: AdminToken, maxBodySize: Int, cacheMaxAge: Int, openAPIDocument: Data,
        logger: Logger
    ) {
        self.catalog = catalog
        self.adminToken = adminToken
        self.maxBodySize = maxBodySize
        self.cacheMaxAge = cacheMaxAge
        self.openAPIDocument = openAPIDocument
        self.logger = logger
    }

    var store: any TabBarStore { catalog.store }

    /// Makes `/readyz` fail from now on.
    func beginShutdown() {
        shuttingDown.withLock { $0 = true }
    }

    var isShuttingDown: Bool { shuttingDown.withLock { $0 } }

    /// Throws 401 unless the request carries the admin token.
    func requireAdmin(_ request: Request) throws {
        guard let authorization = request.headers["Authorization"] else {
            throw APIError.unauthorized("This endpoint needs the admin bearer token.")
        }
        guard adminToken.authorizes(authorization) else {
            throw APIError.unauthorized("The bearer token is not the admin token.")
        }
    }

    /// The live config of `client`, or 404.
    func requireLive(_ client: String) throws -> LiveConfig {
        guard let live = catalog.live(client) else { throw APIError.unknownClient(client) }
        return live
    }
}
