import Foundation

/// What the version history shows of one published version: everything but the document.
public struct ConfigVersionInfo: Sendable, Equatable {
    /// The client this version belongs to.
    public var client: String
    /// The version number.
    public var version: Int
    /// When it was published (millisecond precision, as stored).
    public var publishedAt: Date
    /// The publisher's note, if any.
    public var note: String?
    /// The version this one restored, when it was published as a rollback.
    public var rollbackOf: Int?
    /// The size of the config document in bytes.
    public var size: Int

    /// Creates a history entry.
    public init(client: String, version: Int, publishedAt: Date, note: String?, rollbackOf: Int?, size: Int) {
        self.client = client
        self.version = version
        self.publishedAt = publishedAt
        self.note = note
        self.rollbackOf = rollbackOf
        self.size = size
    }

    /// The history entry of a version.
    public init(_ version: ConfigVersion) {
        self.init(
            client: version.client, version: version.version, publishedAt: version.publishedAt, note: version.note,
            rollbackOf: version.rollbackOf, size: version.document.count
        )
    }
}
