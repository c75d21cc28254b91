import Foundation
import MicroHTTP
import TabBarStore

/// The admin's tools beside publishing: the audit log, explain, and the admin console's files.
struct AdminHandlers: Sendable {
    let catalog: Catalog
    let admin: AdminAccess
    let explainer: Explainer
    /// The admin console's files, nil when the service serves no console.
    let console: AdminConsole?

    /// `GET /v1/audit` (admin): the changes made to configs, oldest first, filtered by `client` and `since`, a page
    /// of `limit` at a time (`next` links to the following page).
    func auditLog(_ request: Request) throws -> Response {
        try admin.requireScope(.admin, request)
        let query = try AuditQuery(request)
        var fetch = query
        fetch.limit = query.limit + 1
        let entries = try catalog.store.auditEntries(fetch)
        let page = entries.prefix(query.limit)
        let next = entries.count > query.limit ? page.last.map { AuditQuery.next(after: $0.sequence, of: request) } : nil
        return .json(AuditLogBody(entries: page.map(AuditEntryBody.init), next: next))
    }

    /// `GET /v1/clients/{client}/tabs/explain?<context>[&user=…]` (admin): for the context (and the user, whose
    /// saved order is then merged as their tab bar would be), whether each tab and experiment applies, the first
    /// rule that failed with its pointer, and the resulting tab bar.
    func explainTabs(_ request: Request) throws -> Response {
        try admin.requireScope(.read, request)
        let client = try request.clientID()
        let query = try explainer.query(request)
        let live = try catalog.requireLive(client)
        return .json(
            explainer.explain(
                live.config, targeting: live.targeting, locales: live.locales, client: client,
                version: live.stored.version, query: query))
    }

    /// `GET /admin/` and `GET /admin/{file}`: the admin console's files (`AdminConsole`).
    func consoleFile(_ request: Request) throws -> Response {
        let name = request.pathParameters["file"] ?? AdminConsole.indexFile
        guard let console, let response = try console.response(for: name, request) else {
            throw APIError.notFound("The admin console has no file '\(name)'.")
        }
        return response
    }

    /// `GET /admin`: a permanent redirect to `/admin/`, so that the page's relative links resolve under it.
    func consoleRedirect(_ request: Request) -> Response {
        var headers = HTTPHeaders()
        headers.add(name: "Location", value: "/admin/")
        headers.add(name: "Cache-Control", value: "no-cache")
        return Response(status: 301, headers: headers)
    }
}
