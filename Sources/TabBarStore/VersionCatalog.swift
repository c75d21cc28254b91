import Foundation

/// The published versions in memory: every version's metadata and each client's live document.
struct VersionCatalog: Sendable {
    /// What is kept of one version besides the live one: no document.
    struct Metadata: Sendable {
        var version: Int
        var publishedAt: Date
        var note: String?
        var rollbackOf: Int?
    }

    /// One client's versions.
    struct History: Sendable {
        /// Ascending by version.
        var versions: [Metadata]
        var live: ConfigVersion
    }

    private(set) var clients: [String: History] = [:]

    /// Adds a version that is newer than every version of its client.
    mutating func add(_ version: ConfigVersion) {
        let metadata = Metadata(
            version: version.version, publishedAt: version.publishedAt, note: version.note,
            rollbackOf: version.rollbackOf
        )
        if var history = clients[version.client] {
            history.versions.append(metadata)
            history.live = version
            clients[version.client] = history
        } else {
            clients[version.client] = History(versions: [metadata], live: version)
        }
    }

    /// Forgets the client.
    mutating func remove(client: String) {
        clients[client] = nil
    }
}
