import Foundation
import Logging

extension FileStore {
    /// Publishes `document` as a new version of `client` straight into the data directory `directory`, which no
    /// server may be running on (the store takes the directory's exclusive lock): opens the store keeping
    /// `keepVersions` versions per client, publishes, closes it.
    public static func publish(
        into directory: URL, client: String, document: Data, note: String?, keepVersions: Int, logger: Logger
    ) throws -> ConfigVersion {
        var options = Options()
        options.keepVersions = keepVersions
        let store = try FileStore(directory: directory, options: options, logger: logger)
        defer { store.close() }
        return try store.publish(client: client, document: document, note: note, rollbackOf: nil)
    }
}
