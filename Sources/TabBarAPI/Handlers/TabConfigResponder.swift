import Foundation
import Logging
import MicroHTTP
import TabBarStore

/// Routes requests to the handlers and turns every thrown error into problem+json.
final class TabConfigResponder: Responder {
    typealias Handler = @Sendable (APIHandlers, Request) throws -> Response
    typealias HeadHandler = @Sendable (APIHandlers, RequestHead, PathParameters) -> Response?

    let handlers: APIHandlers
    private let router: Router

    /// The default tab bar and its event stream: public, the routes `--cors-origin '*'` opens to any origin.
    static let defaultTabsRoute = "/v1/clients/{client}/tabs"
    static let tabEventsRoute = "/v1/clients/{client}/tabs/events"

    init(handlers: APIHandlers) {
        self.handlers = handlers
        var router = Router()
        func add(
            _ method: String, _ pattern: String, head: HeadHandler? = nil, waitsOnStore: Bool = false,
            _ handler: @escaping Handler
        ) {
            var routedHead: Router.HeadHandler?
            if let head {
                routedHead = { requestHead, parameters in head(handlers, requestHead, parameters) }
            }
            router.add(method, pattern, head: routedHead) { request in
                Self.run(handler, handlers, request, waitsOnStore: waitsOnStore)
            }
        }
        add("GET", "/healthz") { $0.health($1) }
        add("GET", "/readyz") { $0.readiness($1) }
        add("GET", "/openapi.yaml") { $0.openAPI($1) }
        if handlers.metrics != nil {
            add("GET", "/metrics") { $0.metricsText($1) }
        }
        if handlers.console != nil {
            add("GET", "/admin") { $0.consoleRedirect($1) }
            add("GET", "/admin/") { try $0.consoleFile($1) }
            add("GET", "/admin/{file}") { try $0.consoleFile($1) }
        }
        add("GET", "/v1/clients") { try $0.listClients($1) }
        add("GET", Self.defaultTabsRoute, head: { $0.defaultTabsHead($1, $2) }) { try $0.defaultTabs($1) }
        add("GET", Self.tabEventsRoute) { try $0.tabEvents($1) }
        add("GET", "/v1/clients/{client}/tabs/explain") { try $0.explainTabs($1) }
        add("GET", "/v1/clients/{client}/users/{user}/tabs", head: { $0.userTabsHead($1, $2) }) { try $0.userTabs($1) }
        add("GET", "/v1/clients/{client}/users/{user}/tab-order") { try $0.getTabOrder($1) }
        add("PUT", "/v1/clients/{client}/users/{user}/tab-order") { try $0.putTabOrder($1) }
        add("DELETE", "/v1/clients/{client}/users/{user}/tab-order", waitsOnStore: true) { try $0.deleteTabOrder($1) }
        add("GET", "/v1/clients/{client}/users/{user}/dynamic-tabs") { try $0.listDynamicTabs($1) }
        add("POST", "/v1/clients/{client}/users/{user}/dynamic-tabs") { try $0.openDynamicTab($1) }
        add("DELETE", "/v1/clients/{client}/users/{user}/dynamic-tabs/{name}") { try $0.closeDynamicTab($1) }
        add("GET", "/v1/clients/{client}/config") { try $0.getConfig($1) }
        add("PUT", "/v1/clients/{client}/config", waitsOnStore: true) { try $0.putConfig($1) }
        add("DELETE", "/v1/clients/{client}/config", waitsOnStore: true) { try $0.deleteConfig($1) }
        add("GET", "/v1/clients/{client}/config/versions") { try $0.listVersions($1) }
        add("GET", "/v1/clients/{client}/config/versions/{version}") { try $0.getVersion($1) }
        add("POST", "/v1/clients/{client}/config/rollback", waitsOnStore: true) { try $0.rollback($1) }
        add("POST", "/v1/clients/{client}/config/preview") { try $0.previewConfig($1) }
        add("POST", "/v1/import/plist", waitsOnStore: true) { try $0.importPlist($1) }
        add("GET", "/v1/audit", waitsOnStore: true) { try $0.auditLog($1) }
        self.router = router
    }

    /// Runs `handler`: after reading through when the request names what this replica has not read yet, and off the
    /// worker thread when it `waitsOnStore` (a write that waits for the store: the connection is suspended meanwhile).
    private static func run(
        _ handler: @escaping Handler, _ handlers: APIHandlers, _ request: Request, waitsOnStore: Bool
    ) -> Response {
        let readThrough = handlers.readThrough(for: request)
        guard readThrough != nil || waitsOnStore else { return attempt(handler, handlers, request) }
        let deferred = DeferredResponse()
        let answer: @Sendable () -> Void = {
            if waitsOnStore {
                storeWork.async { deferred.complete(attempt(handler, handlers, request)) }
            } else {
                deferred.complete { attempt(handler, handlers, request) }
            }
        }
        if let readThrough {
            handlers.store.readThrough(client: readThrough.client, user: readThrough.user) { read in
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

    private static func attempt(_ handler: Handler, _ handlers: APIHandlers, _ request: Request) -> Response {
        do {
            return try handler(handlers, request)
        } catch {
            return handlers.response(for: error, request: request)
        }
    }

    func respond(to request: consuming Request) -> Response {
        switch router.match(method: request.method, path: request.path) {
        case .found(let handler, let parameters):
            var request = request
            request.pathParameters = parameters
            return handler(request)
        case .methodNotAllowed(let allowed) where request.method == "OPTIONS":
            return handlers.options(request, allowed: allowed, route: router.route(method: "OPTIONS", path: request.path))
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
            return .problem(.payloadTooLarge(limit: handlers.maxBodySize), for: request)
        }
        let error = APIError(status: rejection.status, title: "Request rejected", detail: rejection.reason)
        return .problem(error, for: request)
    }
}
