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
