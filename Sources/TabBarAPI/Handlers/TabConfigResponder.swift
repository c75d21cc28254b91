import Foundation
import Logging
import MicroHTTP
import TabBarStore

/// Routes requests to the handlers and turns every thrown error into problem+json.
final class TabConfigResponder: Responder {
    typealias Handler = @Sendable (Request) throws -> Response

    private let service: ServiceHandlers
    private let maxBodySize: Int
    private let router: Router

    /// The default tab bar and its event stream: public, the routes `--cors-origin '*'` opens to any origin.
    static let defaultTabsRoute = "/v1/clients/{client}/tabs"
    static let tabEventsRoute = "/v1/clients/{client}/tabs/events"

    /// The route table: each route's handler, and for the two tab bars the answer from the request head.
    init(
        service: ServiceHandlers, tabBars: TabBarHandlers, customizations: CustomizationHandlers,
        configs: ConfigHandlers, builds: BuildHandlers, admin: AdminHandlers, ofrep: OFREPHandlers,
        errors: ErrorResponder, maxBodySize: Int
    ) {
        let catalog = service.catalog
        self.service = service
        self.maxBodySize = maxBodySize
        var router = Router()
        func add(
            _ method: String, _ pattern: String, head: Router.HeadHandler? = nil, waitsOnStore: Bool = false,
            clientInBody: (@Sendable (Request) -> String?)? = nil, _ handler: @escaping Handler
        ) {
            router.add(method, pattern, head: head) { request in
                Self.run(
                    handler, request, catalog: catalog, errors: errors, waitsOnStore: waitsOnStore,
                    clientInBody: clientInBody)
            }
        }
        add("GET", "/healthz") { service.health($0) }
        add("GET", "/readyz") { service.readiness($0) }
        add("GET", "/openapi.yaml") { try service.openAPI($0) }
        if service.metrics != nil {
            add("GET", "/metrics") { service.metricsText($0) }
        }
        if admin.console != nil {
            add("GET", "/admin") { admin.consoleRedirect($0) }
            add("GET", "/admin/") { try admin.consoleFile($0) }
            add("GET", "/admin/{file}") { try admin.consoleFile($0) }
        }
        add("GET", "/v1/clients") { try configs.listClients($0) }
        add("GET", Self.defaultTabsRoute, head: { tabBars.defaultTabsHead($0, $1) }) { try tabBars.defaultTabs($0) }
        add("GET", Self.tabEventsRoute) { try tabBars.tabEvents($0) }
        add("GET", "/v1/clients/{client}/tabs/explain") { try admin.explainTabs($0) }
        add("GET", "/v1/clients/{client}/users/{user}/tabs", head: { tabBars.userTabsHead($0, $1) }) {
            try tabBars.userTabs($0)
        }
        add("GET", "/v1/clients/{client}/users/{user}/tab-order") { try customizations.getTabOrder($0) }
        add("PUT", "/v1/clients/{client}/users/{user}/tab-order") { try customizations.putTabOrder($0) }
        add("DELETE", "/v1/clients/{client}/users/{user}/tab-order", waitsOnStore: true) {
            try customizations.deleteTabOrder($0)
        }
        add("GET", "/v1/clients/{client}/users/{user}/dynamic-tabs") { try customizations.listDynamicTabs($0) }
        add("POST", "/v1/clients/{client}/users/{user}/dynamic-tabs") { try customizations.openDynamicTab($0) }
        add("DELETE", "/v1/clients/{client}/users/{user}/dynamic-tabs/{name}") {
            try customizations.closeDynamicTab($0)
        }
        add("GET", "/v1/clients/{client}/config") { try configs.getConfig($0) }
        add("PUT", "/v1/clients/{client}/config", waitsOnStore: true) { try configs.putConfig($0) }
        add("DELETE", "/v1/clients/{client}/config", waitsOnStore: true) { try configs.deleteConfig($0) }
        add("GET", "/v1/clients/{client}/config/versions") { try configs.listVersions($0) }
        add("GET", "/v1/clients/{client}/config/versions/{version}") { try configs.getVersion($0) }
        add("POST", "/v1/clients/{client}/config/rollback", waitsOnStore: true) { try configs.rollback($0) }
        add("POST", "/v1/clients/{client}/config/preview") { try configs.previewConfig($0) }
        add("POST", "/v1/import/plist", waitsOnStore: true) { try configs.importPlist($0) }
        add("GET", "/v1/clients/{client}/builds") { try builds.listBuilds($0) }
        add("GET", "/v1/clients/{client}/builds/{platform}/{appVersion}") { try builds.getBuild($0) }
        add("PUT", "/v1/clients/{client}/builds/{platform}/{appVersion}", waitsOnStore: true) { try builds.putBuild($0) }
        add("DELETE", "/v1/clients/{client}/builds/{platform}/{appVersion}", waitsOnStore: true) {
            try builds.deleteBuild($0)
        }
        add("GET", "/v1/audit", waitsOnStore: true) { try admin.auditLog($0) }
        add("POST", "/ofrep/v1/evaluate/flags", clientInBody: OFREPHandlers.client) { try ofrep.evaluateFlags($0) }
        add("POST", "/ofrep/v1/evaluate/flags/{key}") { try ofrep.evaluateFlag($0) }
        self.router = router
    }

    /// Runs `handler`: after reading through when the request names what this replica has not read yet (its client
    /// in the path, or where `clientInBody` finds it), and off the worker thread when it `waitsOnStore` (a write that
    /// waits for the store: the connection is suspended meanwhile).
    private static func run(
        _ handler: @escaping Handler, _ request: Request, catalog: Catalog, errors: ErrorResponder, waitsOnStore: Bool,
        clientInBody: (@Sendable (Request) -> String?)?
    ) -> Response {
        let readThrough = catalog.readThrough(for: request, clientInBody: clientInBody)
        guard readThrough != nil || waitsOnStore else { return attempt(handler, request, errors: errors) }
        let deferred = DeferredResponse()
        let answer: @Sendable () -> Void = {
            if waitsOnStore {
                storeWork.async { deferred.complete(attempt(handler, request, errors: errors)) }
            } else {
                deferred.complete { attempt(handler, request, errors: errors) }
            }
        }
        if let readThrough {
            catalog.store.readThrough(client: readThrough.client, user: readThrough.user) { read in
                // Unread, the answer could be older than what the request names: a client holding an ETag never
                // gets an older revision, it is told to retry.
                guard read else { return deferred.complete(.problem(.readThroughFailed, for: request)) }
                answer()
            }
        } else {
            answer()
        }
        return Response(deferred: deferred)
    }

    /// Where writes that wait for the store run, so that no worker thread waits with them.
    private static let storeWork = DispatchQueue(label: "tabconfig.store-writes", attributes: .concurrent)

    private static func attempt(_ handler: Handler, _ request: Request, errors: ErrorResponder) -> Response {
        do {
            return try handler(request)
        } catch {
            return errors.response(for: error, request: request)
        }
    }

    func respond(to request: consuming Request) -> Response {
        switch router.match(method: request.method, path: request.path) {
        case .found(let handler, let parameters):
            var request = request
            request.pathParameters = parameters
            return handler(request)
        case .methodNotAllowed(let allowed) where request.method == "OPTIONS":
            return service.options(request, allowed: allowed, route: router.route(method: "OPTIONS", path: request.path))
        case .methodNotAllowed(let allowed):
            return .problem(.methodNotAllowed(allowed), for: request)
        case .notFound:
            return .problem(.notFound("No resource at this path."), for: request)
        }
    }

    /// The default and the user tab bars, the reads every app launch makes, are answered from the request head
    /// (the routes given a `head` handler above).
    func headAnswer(to head: RequestHead) -> Response? {
        router.headAnswer(to: head)
    }

    func route(method: String, path: String) -> String? {
        router.route(method: method, path: path)
    }

    func respond(to rejection: Rejection, for request: Request) -> Response {
        if rejection.status == 413 {
            return .problem(.payloadTooLarge(limit: maxBodySize), for: request)
        }
        let error = APIError(status: rejection.status, title: "Request rejected", detail: rejection.reason)
        return .problem(error, for: request)
    }
}
