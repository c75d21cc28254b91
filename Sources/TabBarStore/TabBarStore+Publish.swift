import Foundation

extension TabBarStore {
    /// Publishes a new version unconditionally: `publish(client:document:note:rollbackOf:expectedVersion:)` with no
    /// expected version.
    public func publish(client: String, document: Data, note: String?, rollbackOf: Int?) throws -> ConfigVersion {
        try publish(client: client, document: document, note: note, rollbackOf: rollbackOf, expectedVersion: nil)
    }
}
