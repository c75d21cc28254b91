import Foundation

/// One published, immutable config version.
public struct ConfigVersion: Sendable, Equatable {
    /// The client this version belongs to.
    public var client: String
    /// The version number: 1, 2, 3 … per client, never reused (not even after the client is deleted).
    public var version: Int
    /// When it was published (millisecond precision, as stored).
    public var publishedAt: Date
    /// The publisher's note, if any.
    public var note: String?
    /// The version this one restored, when it was published as a rollback.
    public var rollbackOf: Int?
    /// The config document JSON, opaque to the store.
    public var document: Data

    /// Creates a version value.
    public init(client: String, version: Int, publishedAt: Date, note: String?, rollbackOf: Int?, document: Data) {
        self.client = client
        self.version = version
        self.publishedAt = publishedAt
        self.note = note
        self.rollbackOf = rollbackOf
        self.document = document
    }
}
