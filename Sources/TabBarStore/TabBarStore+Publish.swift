import Foundation

extension TabBarStore {
    /// Publishes a new version unconditionally: `publish(client:document:note:rollbackOf:expectedVersion:audit:)` with
    /// no expected version and no audit entry.
    public func publish(client: String, document: Data, note: String?, rollbackOf: Int?) throws -> ConfigVersion {
        try publish(client: client, document: document, note: note, rollbackOf: rollbackOf, expectedVersion: nil)
    }

    /// Publishes a new version without an audit entry (the seed of the sample config, offline imports, tests).
    public func publish(
        client: String, document: Data, note: String?, rollbackOf: Int?, expectedVersion: Int?
    ) throws -> ConfigVersion {
        try publish(
            client: client, document: document, note: note, rollbackOf: rollbackOf, expectedVersion: expectedVersion,
            audit: nil)
    }
}
