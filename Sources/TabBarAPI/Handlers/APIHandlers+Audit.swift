import Foundation
import MicroHTTP
import TabBarStore

extension APIHandlers {
    /// `GET /v1/audit` (admin): the changes made to configs, oldest first, filtered by `client` and `since`, a page
    /// of `limit` at a time (`next` links to the following page).
    func auditLog(_ request: Request) throws -> Response {
        try requireScope(.admin, request)
        let query = try AuditQuery(request)
        var fetch = query
        fetch.limit = query.limit + 1
        let entries = try store.auditEntries(fetch)
        let page = entries.prefix(query.limit)
        let next = entries.count > query.limit ? page.last.map { AuditQuery.next(after: $0.sequence, of: request) } : nil
        return .json(AuditLogBody(entries: page.map(AuditEntryBody.init), next: next))
    }
}
