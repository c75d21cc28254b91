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
            guard Request.isDecimal(text) else {
                throw APIError.invalidParameter("after", "after is a sequence number, 0 or more")
            }
            // Past every sequence there can be: nothing follows.
            self.after = Int(text) ?? Int.max
        }
        if let text = request.query("limit") {
            guard Request.isDecimal(text), let limit = Int(text), (1...Self.maxLimit).contains(limit) else {
                throw APIError.invalidParameter("limit", "limit is 1 to \(Self.maxLimit)")
            }
            self.limit = limit
        }
    }

    /// The link to the entries after `sequence`: `request`'s own parameters as it gave them (a `since` keeps its
    /// precision and offset), `after` replaced, each value percent-encoded but for unreserved characters (a `+` of an
    /// offset would read as a space).
    static func next(after sequence: Int, of request: Request) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let items = request.queryItems.filter { $0.name != "after" } + [(name: "after", value: String(sequence))]
        let query = items.map { item in
            let value = item.value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? item.value
            let name = item.name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? item.name
            return "\(name)=\(value)"
        }
        return "/v1/audit?" + query.joined(separator: "&")
    }
}
