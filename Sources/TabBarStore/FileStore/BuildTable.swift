import Foundation

/// The file store's build manifests: every client's, in memory and in `builds.json` in the data directory, which each
/// change rewrites whole and atomically (temp file, fsync, rename, directory fsync). Manifests are few and registered
/// from CI, not from apps, so a rewrite per change costs nothing that matters. The file keeps the last revision given
/// out, so that a revision (an ETag) never names two manifests.
struct BuildTable: Sendable {
    /// The file's name in the data directory.
    static let fileName = "builds.json"

    private(set) var builds: [BuildKey: StoredBuild] = [:]
    /// The last revision given out.
    private(set) var lastRevision = 0

    /// The builds of `client`, sorted by platform and app version.
    func builds(client: String) -> [StoredBuild] {
        builds.builds(of: client)
    }

    /// The table with `document` registered for `key` at `date`, and what that did.
    func registering(_ key: BuildKey, document: Data, at date: Date) -> (table: BuildTable, build: StoredBuild, change: BuildChange) {
        if let current = builds[key], current.document == document {
            return (self, current, .unchanged)
        }
        var table = self
        table.lastRevision += 1
        let build = StoredBuild(
            client: key.client, platform: key.platform, appVersion: key.appVersion, revision: table.lastRevision,
            registeredAt: date, document: document)
        table.builds[key] = build
        return (table, build, builds[key] == nil ? .created : .replaced)
    }

    /// The table without `key`'s manifest.
    func removing(_ key: BuildKey) -> BuildTable {
        var table = self
        table.builds[key] = nil
        return table
    }

    /// What the file holds.
    private struct File: Codable {
        var format: Int
        var lastRevision: Int
        var builds: [Build]

        struct Build: Codable {
            var client: String
            var platform: String
            var appVersion: String
            var revision: Int
            /// Milliseconds since 1970.
            var registeredAt: Int64
            /// The manifest's JSON, as text.
            var document: String
        }
    }

    /// The file's bytes.
    func encoded() throws -> Data {
        let file = File(
            format: 1, lastRevision: lastRevision,
            builds: builds.values.sorted { $0.key < $1.key }.map { build in
                File.Build(
                    client: build.client, platform: build.platform, appVersion: build.appVersion,
                    revision: build.revision,
                    registeredAt: StoredTime.milliseconds(build.registeredAt),
                    document: String(decoding: build.document, as: UTF8.self))
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(file)
    }

    /// The table a file holds.
    static func decode(_ data: Data) throws -> BuildTable {
        let file = try JSONDecoder().decode(File.self, from: data)
        guard file.format == 1 else {
            throw StoreOpenError("\(fileName) has format \(file.format), which this release does not read")
        }
        var table = BuildTable()
        table.lastRevision = file.lastRevision
        for build in file.builds {
            let stored = StoredBuild(
                client: build.client, platform: build.platform, appVersion: build.appVersion, revision: build.revision,
                registeredAt: StoredTime.date(build.registeredAt),
                document: Data(build.document.utf8))
            table.builds[stored.key] = stored
            table.lastRevision = max(table.lastRevision, build.revision)
        }
        return table
    }
}
