import Foundation

/// The published versions in memory: every retained version's metadata and each client's live document.
struct VersionCatalog: Sendable {
    /// What is kept of one version besides the live one: no document.
    struct Metadata: Sendable {
        var version: Int
        var publishedAt: Date
        var note: String?
        var rollbackOf: Int?
        /// Document bytes.
        var size: Int
    }

    /// One client's versions.
    struct History: Sendable {
        /// Ascending by version.
        var versions: [Metadata]
        var live: ConfigVersion
    }

    private(set) var clients: [String: History] = [:]
    /// Per client, the highest number of a version file moved aside as damaged: never handed out again.
    private(set) var setAsideNumbers: [String: Int] = [:]

    /// The client's highest version number ever used that the catalog knows of (its live version or a version file
    /// moved aside), or nil.
    func highestNumber(client: String) -> Int? {
        let live = clients[client]?.live.version
        let setAside = setAsideNumbers[client]
        guard live != nil || setAside != nil else { return nil }
        return max(live ?? 0, setAside ?? 0)
    }

    /// Whether a damaged version file of any client was moved aside.
    var hasSetAsideNumbers: Bool {
        !setAsideNumbers.isEmpty
    }

    /// Records that a damaged version file of the client with this number was moved aside.
    mutating func setAside(client: String, number: Int) {
        setAsideNumbers[client] = max(setAsideNumbers[client] ?? 0, number)
    }

    /// Adds a version that is newer than every version of its client.
    mutating func add(_ version: ConfigVersion) {
        let metadata = Metadata(
            version: version.version, publishedAt: version.publishedAt, note: version.note,
            rollbackOf: version.rollbackOf, size: version.document.count
        )
        if var history = clients[version.client] {
            history.versions.append(metadata)
            history.live = version
            clients[version.client] = history
        } else {
            clients[version.client] = History(versions: [metadata], live: version)
        }
    }

    /// Forgets the client's oldest versions beyond the newest `keep` (at least 1, so never the live one); returns the
    /// numbers forgotten, ascending.
    mutating func prune(client: String, keep: Int) -> [Int] {
        guard var history = clients[client], history.versions.count > max(keep, 1) else { return [] }
        let doomed = history.versions.count - max(keep, 1)
        let numbers = history.versions.prefix(doomed).map(\.version)
        history.versions.removeFirst(doomed)
        clients[client] = history
        return numbers
    }

    /// Forgets the client.
    mutating func remove(client: String) {
        clients[client] = nil
        setAsideNumbers[client] = nil
    }
}
