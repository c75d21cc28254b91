import Foundation
import Logging
import TabBarModel
import TabBarStore

/// `tabconfig import-plist`: converts an `ApplicationHierarchy.plist` and publishes it straight into a data
/// directory (the server must not be running on it: the store takes an exclusive lock).
public enum PlistImport {
    /// Why an import did not publish.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// One line per problem.
        public var lines: [String]
        public var description: String { lines.joined(separator: "\n") }
    }

    /// Publishes the converted config as a new version of `client`; returns the version number.
    public static func publish(
        plist: Data, client: String, note: String?, dataDirectory: URL, keepVersions: Int = 100, logger: Logger
    ) throws -> Int {
        guard Identifiers.isValidClient(client) else {
            throw Failure(lines: ["client id '\(client)' does not match \(Identifiers.clientPattern)"])
        }
        let config: TabBarConfig
        switch TabBarConfig.importApplicationHierarchy(plist) {
        case .success(let converted):
            config = converted
        case .failure(.malformed(let detail)):
            throw Failure(lines: ["not an ApplicationHierarchy property list: \(detail)"])
        case .failure(.invalid(let problems)):
            throw Failure(lines: problems.map(\.line))
        }
        let version = try FileStore.publish(
            into: dataDirectory, client: client, document: config.encoded(),
            note: note ?? "imported from ApplicationHierarchy.plist", keepVersions: keepVersions, logger: logger)
        return version.version
    }
}
