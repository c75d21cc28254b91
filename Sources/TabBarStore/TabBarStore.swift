import Foundation

/// Durable storage of published config versions and users' customizations.
///
/// Every write method returns only after the write is durable. Reads are served from memory.
/// Implementations are safe to call from many threads at once.
public protocol TabBarStore: AnyObject, Sendable {
    /// nil when healthy; a reason when the store refuses writes (fsync failed, closed, ...).
    var unavailableReason: String? { get }
    /// Every client with at least one published version, sorted.
    func clientIDs() -> [String]
    /// The newest version of the client, from memory.
    func liveVersion(client: String) -> ConfigVersion?
    /// One version of the client, or nil if it does not exist.
    func version(client: String, number: Int) -> ConfigVersion?
    /// The client's version numbers, ascending.
    func versionNumbers(client: String) -> [Int]
    /// Publishes a new version (number = newest + 1, or 1). Durable before returning.
    func publish(client: String, document: Data, note: String?, rollbackOf: Int?) throws -> ConfigVersion
    /// Deletes every version of the client and every customization of that client (their revisions start again
    /// at 1, as versions do). Returns false if the client did not exist. Durable before returning.
    func deleteClient(_ client: String) throws -> Bool
    /// The stored customization, from memory; nil when never saved (or reset).
    func customization(client: String, user: String) -> CustomizationEntry?
    /// Stores a customization with revision = previous + 1 (previous is 0 when none; a reset counts as a write
    /// and does not restart the numbering). If `expectedRevision` is non-nil and differs from the current revision
    /// (0 when none or reset), throws `StoreError.revisionMismatch` and writes nothing. Durable (group-committed)
    /// before returning.
    func saveCustomization(
        client: String, user: String, _ value: StoredCustomization, expectedRevision: UInt64?
    ) throws -> CustomizationEntry
    /// Removes the customization (taking the next revision, which the key keeps counting from); returns whether
    /// one existed. Durable before returning.
    func deleteCustomization(client: String, user: String) throws -> Bool
    /// Number of stored customizations (for logs and metrics).
    var customizationCount: Int { get }
    /// Flushes and closes; later writes throw `StoreError.unavailable`.
    func close()
}
