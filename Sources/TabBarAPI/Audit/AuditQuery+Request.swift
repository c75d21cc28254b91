import Foundation
import MicroHTTP
import TabBarModel
import TabBarStore

extension AuditQuery {
    /// The most entries one answer holds.
    static let maxLimit = 1000

    /// The query of `GET /v1/audit`: `client`, `since` (RFC 3339), `after` (a sequence, the paging cursor) and
    /// `limit` (1 to 1000, default 100); 400 naming the parameter that is malformed.
    init(_ request: Request) throws {
        self.init()
        if let client = request.query("client") {
            guard Identifiers.isValidClient(client) else { throw APIError.invalidClient }
            self.client = client
        }
        if let text = request.query("since") {
            guard let since = Timestamp.parseTimestamp(text) else {
                throw APIError.invalidParameter("since", "since is an RFC 3339 date-time, e.g. 2026-11-24T09:00:00Z")
            }
            self.since = since
        }
        if let text = request.query("after") {
            guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else {
                throw APIError.invalidParameter("after", "after is a sequence number, 0 or more")
            }
            // Past every sequence there can be: nothing follows.
            self.after = Int(text) ?? Int.max
        }
        if let text = request.query("limit") {
            guard let limit = Int(text), (1...Self.maxLimit).contains(limit),
                text.utf8.allSatisfy({ (48...57).contains($0) })
            else {
                throw APIError.invalidParameter("limit", "limit is 1 to \(Self.maxLimit)")
            }
            self.limit = limit
        }
    }

    /// The link to the entries after `sequence`, with this query's other parameters.
    func next(after sequence: Int) -> String {
        var items = [URLQueryItem]()
        if let client { items.append(URLQueryItem(name: "client", value: client)) }
        if let since { items.append(URLQueryItem(name: "since", value: since.formatted(.iso8601))) }
        items.append(URLQueryItem(name: "after", value: String(sequence)))
        items.append(URLQueryItem(name: "limit", value: String(limit)))
        var components = URLComponents()
        components.path = "/v1/audit"
        components.queryItems = items
        return components.string ?? "/v1/audit?after=\(sequence)"
    }
}
