import Foundation
import TabBarModel

/// A build manifest as a store keeps it (docs/design/stores.md, "Build manifests"): the client, the build (a platform
/// and an app version in canonical form) and the manifest's JSON as registered.
public struct StoredBuild: Sendable, Hashable {
    /// The client the build is an app of.
    public var client: String
    /// The platform (`ios`).
    public var platform: String
    /// The app version in canonical form (`5.2.0`).
    public var appVersion: String
    /// Counts the store's build changes: each registration that changes a manifest takes the next number, never
    /// reused (the manifest's ETag).
    public var revision: Int
    /// When the manifest was registered as it is now, with millisecond precision as stored.
    public var registeredAt: Date
    /// The manifest's JSON.
    public var document: Data

    /// A stored build.
    public init(
        client: String, platform: String, appVersion: String, revision: Int, registeredAt: Date, document: Data
    ) {
        self.client = client
        self.platform = platform
        self.appVersion = appVersion
        self.revision = revision
        self.registeredAt = registeredAt
        self.document = document
    }

    /// The client, platform and app version that name it.
    var key: BuildKey {
        BuildKey(client: client, platform: platform, appVersion: appVersion)
    }
}

/// What registering a manifest did.
public enum BuildChange: Sendable, Equatable {
    /// There was none for the build.
    case created
    /// One with another document was replaced.
    case replaced
    /// One with the same document was there: nothing was written.
    case unchanged
}

/// The client, platform and app version that name a stored build.
struct BuildKey: Hashable, Sendable, Comparable {
    var client: String
    var platform: String
    var appVersion: String

    static func < (lhs: BuildKey, rhs: BuildKey) -> Bool {
        (lhs.client, lhs.platform, lhs.appVersion) < (rhs.client, rhs.platform, rhs.appVersion)
    }
}

extension BuildKey {
    /// The key of a registration both stores accept: a valid client id (else ``StoreError/invalidClientID``) and a
    /// JSON document (else ``StoreError/invalidDocument``).
    static func registering(client: String, platform: String, appVersion: String, document: Data) throws -> BuildKey {
        guard Identifiers.isValidClient(client) else { throw StoreError.invalidClientID }
        guard VersionFile.isJSON(document) else { throw StoreError.invalidDocument }
        return BuildKey(client: client, platform: platform, appVersion: appVersion)
    }
}

extension Dictionary where Key == BuildKey, Value == StoredBuild {
    /// The builds of `client`, sorted by platform and app version.
    func builds(of client: String) -> [StoredBuild] {
        values.filter { $0.client == client }.sorted { $0.key < $1.key }
    }
}
