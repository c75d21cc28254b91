/// Body of POST rollback: `{"version": n, "note": "…"}` (`note` optional).
public struct RollbackRequest: Sendable, Equatable {
    /// Longest note accepted.
    public static let maximumNoteLength = 256

    /// The kept version to publish a copy of.
    public var version: Int
    /// The note of the new version; nil for the default one.
    public var note: String?

    /// Creates a request.
    public init(version: Int, note: String? = nil) {
        self.version = version
        self.note = note
    }
}
