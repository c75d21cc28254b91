/// An error a store write reports to its caller; each maps to one HTTP status.
public struct StoreError: Error, Sendable, CustomStringConvertible, Equatable {
    private enum Code: Sendable, Equatable {
        case unavailable
        case revisionMismatch
        case invalidClientID
        case invalidDocument
        case recordTooLarge
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The store refuses writes (after an fsync or write failure, or closed): HTTP 503.
    public static let unavailable = StoreError(.unavailable)
    /// The expected revision did not match the current one: HTTP 412.
    public static let revisionMismatch = StoreError(.revisionMismatch)
    /// The client id does not match `Identifiers.clientPattern`, so it cannot name a directory: HTTP 400.
    public static let invalidClientID = StoreError(.invalidClientID)
    /// The config document is not JSON: HTTP 422.
    public static let invalidDocument = StoreError(.invalidDocument)
    /// The encoded customization exceeds the journal's 1 MiB record limit: HTTP 413.
    public static let recordTooLarge = StoreError(.recordTooLarge)

    /// Whether the store refuses writes.
    public var isUnavailable: Bool { code == .unavailable }

    public var description: String {
        switch code {
        case .unavailable: "the store is unavailable for writes"
        case .revisionMismatch: "the expected revision does not match the current revision"
        case .invalidClientID: "the client id is not valid"
        case .invalidDocument: "the config document is not valid JSON"
        case .recordTooLarge: "the customization is too large to store"
        }
    }
}

/// Opening a store failed: unreadable or corrupt files, or a data directory that cannot be written.
/// The description names the file and, for corruption, the byte offset.
public struct StoreOpenError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, naming the file (and the byte offset for corruption).
    public var description: String
    /// Whether another process (a running server) holds the data directory's lock.
    public var directoryInUse = false

    /// Creates an error with a message.
    public init(_ description: String) {
        self.description = description
    }
}
