import Foundation

/// Which audit entries to read.
public struct AuditQuery: Sendable, Equatable {
    /// Only this client's entries; nil: every client.
    public var client: String?
    /// Only entries with `time >= since`.
    public var since: Date?
    /// Only entries with `sequence > after` (the paging cursor: the last sequence a caller read).
    public var after: Int?
    /// At most this many entries, oldest first.
    public var limit: Int

    /// Creates a query; the defaults read the oldest 100 entries of every client.
    public init(client: String? = nil, since: Date? = nil, after: Int? = nil, limit: Int = 100) {
        self.client = client
        self.since = since
        self.after = after
        self.limit = limit
    }

    /// Whether `entry` is one the query asks for (its limit aside).
    func matches(_ entry: AuditEntry) -> Bool {
        (client.map { $0 == entry.client } ?? true) && (since.map { entry.time >= $0 } ?? true)
            && (after.map { entry.sequence > $0 } ?? true)
    }
}
