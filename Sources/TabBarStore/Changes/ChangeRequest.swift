import Foundation

/// A proposed document for one client, waiting for approvals and, maybe, a time to go live (docs/changes.md): kept by
/// the store with every step it goes through.
public struct ChangeRequest: Sendable, Equatable {
    /// Where a change request is.
    public enum State: String, Sendable, Codable, CaseIterable {
        /// Open to edits and approvals, and to be published.
        case open
        /// Published: `publishedVersion` is the version it made.
        case published
        /// Closed without being published.
        case closed
        /// Its time came without its approvals, or with its base no longer live: nothing was published (`reason`).
        case failed
    }

    /// The store's number of the change, never given out twice.
    public var id: Int
    public var client: String
    /// Counts every write of the change: 1 when opened. A write names the revision it replaces.
    public var revision: Int
    public var state: State
    /// The name of the admin key that opened it.
    public var author: String
    /// The names of the keys that approved its current revision's document, in order.
    public var approvals: [String]
    /// The live version the document was made against; 0 for a client with none.
    public var baseVersion: Int
    /// The proposed config, as JSON.
    public var document: Data
    public var note: String?
    /// When the service is to publish it by itself.
    public var publishAt: Date?
    public var createdAt: Date
    public var updatedAt: Date
    /// Why it failed or was closed.
    public var reason: String?
    /// The version publishing it made.
    public var publishedVersion: Int?

    /// Creates a change request (the store gives out its id, revision and times when it is opened).
    public init(
        id: Int = 0, client: String, revision: Int = 0, state: State = .open, author: String, approvals: [String] = [],
        baseVersion: Int, document: Data, note: String? = nil, publishAt: Date? = nil, createdAt: Date = Date(),
        updatedAt: Date = Date(), reason: String? = nil, publishedVersion: Int? = nil
    ) {
        self.id = id
        self.client = client
        self.revision = revision
        self.state = state
        self.author = author
        self.approvals = approvals
        self.baseVersion = baseVersion
        self.document = document
        self.note = note
        self.publishAt = publishAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.reason = reason
        self.publishedVersion = publishedVersion
    }
}

extension ChangeRequest: Codable {
    /// The change as the stores keep it: times as milliseconds since 1970, the document as its JSON text.
    private enum CodingKeys: String, CodingKey {
        case id, client, revision, state, author, approvals, baseVersion, document, note, publishAt, createdAt
        case updatedAt, reason, publishedVersion
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        client = try container.decode(String.self, forKey: .client)
        revision = try container.decode(Int.self, forKey: .revision)
        state = try container.decode(State.self, forKey: .state)
        author = try container.decode(String.self, forKey: .author)
        approvals = try container.decode([String].self, forKey: .approvals)
        baseVersion = try container.decode(Int.self, forKey: .baseVersion)
        document = Data(try container.decode(String.self, forKey: .document).utf8)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        publishAt = try container.decodeIfPresent(Int64.self, forKey: .publishAt).map(StoredTime.date)
        createdAt = StoredTime.date(try container.decode(Int64.self, forKey: .createdAt))
        updatedAt = StoredTime.date(try container.decode(Int64.self, forKey: .updatedAt))
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        publishedVersion = try container.decodeIfPresent(Int.self, forKey: .publishedVersion)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(client, forKey: .client)
        try container.encode(revision, forKey: .revision)
        try container.encode(state, forKey: .state)
        try container.encode(author, forKey: .author)
        try container.encode(approvals, forKey: .approvals)
        try container.encode(baseVersion, forKey: .baseVersion)
        try container.encode(String(decoding: document, as: UTF8.self), forKey: .document)
        try container.encodeIfPresent(note, forKey: .note)
        try container.encodeIfPresent(publishAt.map(StoredTime.milliseconds), forKey: .publishAt)
        try container.encode(StoredTime.milliseconds(createdAt), forKey: .createdAt)
        try container.encode(StoredTime.milliseconds(updatedAt), forKey: .updatedAt)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(publishedVersion, forKey: .publishedVersion)
    }
}
