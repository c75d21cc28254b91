import Foundation
import Logging
import MicroHTTP
import TabBarModel
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

    /// Who may call a route: checked before a replica on a shared store reads through for a request (a conditional
    /// one, or one naming a version), so that a caller the handler would refuse never makes it query the store. The
    /// handler checks again, as it does on every store.
    enum Caller: Sendable {
        /// Anyone; only the config version is read through.
        case anyone
        /// The user of the `{user}` path parameter (``UserAccess``), whose revision is read through.
        case user
        /// An admin key of any scope.
        case admin
        /// An OFREP evaluation: a user token when user authentication is on; the body is read for the context's
        /// client and user only then.
        case evaluation
    }

    /// The route table: each route's handler, and for the two tab bars the answer from the request head.
    init(
        service: ServiceHandlers, tabBars: TabBarHandlers, customizations: CustomizationHandlers,
        configs: ConfigHandlers, builds: BuildHandlers, admin: AdminHandlers, ofrep: OFREPHandlers,
        rollouts: RolloutHandlers, errors: ErrorResponder, maxBodySize: Int
    ) {
        let catalog = service.catalog
        self.service = service
        self.maxBodySize = maxBodySize
        var router = Router()
        let (users, adminAccess) = (tabBars.users, admin.admin)
        func add(
            _ method: String, _ pattern: String, _ caller: Caller, head: Router.HeadHandler? = nil,
            waitsOnStore: Bool = false, _ handler: @escaping Handler
        ) {
            router.add(method, pattern, head: head) { request in
                Self.run(handler, request, catalog: catalog, errors: errors, waitsOnStore: waitsOnStore) {
                    try Self.readThroughSubject(request, caller, users: users, admin: adminAccess)
                }
            }
        }
        add("GET", "/healthz", .anyone) { service.health($0) }
        add("GET", "/readyz", .anyone) { service.readiness($0) }
        add("GET", "/openapi.yaml", .anyone) { try service.openAPI($0) }
        if service.metrics != nil {
            add("GET", "/metrics", .anyone) { service.metricsText($0) }
        }
        if admin.console != nil {
            add("GET", "/admin", .anyone) { admin.consoleRedirect($0) }
            add("GET", "/admin/", .anyone) { try admin.consoleFile($0) }
            add("GET", "/admin/{file}", .anyone) { try admin.consoleFile($0) }
        }
        add("GET", "/v1/clients", .admin) { try configs.listClients($0) }
        add("GET", Self.defaultTabsRoute, .anyone, head: { tabBars.defaultTabsHead($0, $1) }) {
            try tabBars.defaultTabs($0)
        }
        add("GET", Self.tabEventsRoute, .anyone) { try tabBars.tabEvents($0) }
        add("GET", "/v1/clients/{client}/tabs/explain", .admin) { try admin.explainTabs($0) }
        add("GET", "/v1/clients/{client}/users/{user}/tabs", .user, head: { tabBars.userTabsHead($0, $1) }) {
            try tabBars.userTabs($0)
        }
        add("GET", "/v1/clients/{client}/users/{user}/tab-order", .user) { try customizations.getTabOrder($0) }
        add("PUT", "/v1/clients/{client}/users/{user}/tab-order", .user) { try customizations.putTabOrder($0) }
        add("DELETE", "/v1/clients/{client}/users/{user}/tab-order", .user, waitsOnStore: true) {
            try customizations.deleteTabOrder($0)
        }
        add("GET", "/v1/clients/{client}/users/{user}/dynamic-tabs", .user) { try customizations.listDynamicTabs($0) }
        add("POST", "/v1/clients/{client}/users/{user}/dynamic-tabs", .user) { try customizations.openDynamicTab($0) }
        add("DELETE", "/v1/clients/{client}/users/{user}/dynamic-tabs/{name}", .user) {
            try customizations.closeDynamicTab($0)
        }
        add("GET", "/v1/clients/{client}/config", .admin) { try configs.getConfig($0) }
        add("PUT", "/v1/clients/{client}/config", .admin, waitsOnStore: true) { try configs.putConfig($0) }
        add("DELETE", "/v1/clients/{client}/config", .admin, waitsOnStore: true) { try configs.deleteConfig($0) }
        add("GET", "/v1/clients/{client}/config/versions", .admin) { try configs.listVersions($0) }
        add("GET", "/v1/clients/{client}/config/versions/{version}", .admin) { try configs.getVersion($0) }
        add("POST", "/v1/clients/{client}/config/rollback", .admin, waitsOnStore: true) { try configs.rollback($0) }
        add("POST", "/v1/clients/{client}/config/preview", .admin) { try configs.previewConfig($0) }
        add("POST", "/v1/import/plist", .admin, waitsOnStore: true) { try configs.importPlist($0) }
        add("GET", "/v1/clients/{client}/builds", .admin) { try builds.listBuilds($0) }
        add("GET", "/v1/clients/{client}/builds/{platform}/{appVersion}", .admin) { try builds.getBuild($0) }
        add("PUT", "/v1/clients/{client}/builds/{platform}/{appVersion}", .admin, waitsOnStore: true) {
            try builds.putBuild($0)
        }
        add("DELETE", "/v1/clients/{client}/builds/{platform}/{appVersion}", .admin, waitsOnStore: true) {
            try builds.deleteBuild($0)
        }
        add("GET", "/v1/audit", .admin, waitsOnStore: true) { try admin.auditLog($0) }
        add("POST", "/v1/clients/{client}/reports", .anyone) { try rollouts.report($0) }
        add("GET", "/v1/clients/{client}/rollouts", .admin) { try rollouts.list($0) }
        for action in RolloutSupervisor.Action.allCases {
            add("POST", "/v1/clients/{client}/rollouts/{tab}/\(action.rawValue)", .admin, waitsOnStore: true) {
                try rollouts.act(action, $0)
            }
        }
        add("POST", "/ofrep/v1/evaluate/flags", .evaluation) { try ofrep.evaluateFlags($0) }
        add("POST", "/ofrep/v1/evaluate/flags/{key}", .evaluation) { try ofrep.evaluateFlag($0) }
        self.router = router
    }

    /// Runs `handler`: after reading through when the request names what this replica has not read yet, and off the
    /// worker thread when it `waitsOnStore` (a write that waits for the store: the connection is suspended
    /// meanwhile). On a shared store, a request that may need a read-through is first let in by `subject` (the
    /// route's ``Caller`` check), whose refusal is the answer.
    private static func run(
        _ handler: @escaping Handler, _ request: Request, catalog: Catalog, errors: ErrorResponder, waitsOnStore: Bool,
        subject: () throws -> (client: String?, user: String?)
    ) -> Response {
        var readThrough: Catalog.ReadThrough?
        if catalog.store.isShared, request.headers["If-None-Match"] != nil || request.headers["If-Match"] != nil
            || request.pathParameters["version"] != nil
        {
            do {
                let (client, user) = try subject()
                readThrough = catalog.readThrough(for: request, client: client, user: user)
            } catch {
                return errors.response(for: error, request: request)
            }
        }
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

    /// The client and the user a request's read-through concerns, once `caller` lets it in (else what it throws).
    private static func readThroughSubject(
        _ request: Request, _ caller: Caller, users: UserAccess, admin: AdminAccess
    ) throws -> (client: String?, user: String?) {
        let client = request.pathParameters["client"]
        switch caller {
        case .anyone:
            return (client, nil)
        case .admin:
            try admin.requireScope(.read, request)
            return (client, nil)
        case .user:
            return (client, try users.authorizedUser(request))
        case .evaluation:
            let subject =
                users.authenticator == nil
                ? nil : try users.user(pathUser: "me", authorization: request.headers["Authorization"], verifying: true)
            guard let evaluation = OFREPHandlers.context(request) else { return (client, nil) }
            let user = evaluation.targetingKey.flatMap { key in
                Identifiers.isValidUser(key) && (subject == nil || subject == key) ? key : nil
            }
            return (client ?? evaluation.client, user)
        }
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
