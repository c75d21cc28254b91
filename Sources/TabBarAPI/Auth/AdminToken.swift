import Foundation
import Logging
import TabBarStore

/// The token of the one `admin` key that needs no keys file: `TABCONFIG_ADMIN_TOKEN`, or one generated into the
/// data directory.
enum AdminToken {
    /// The name the token's key has in the audit log.
    static let keyName = "admin-token"

    /// Uses `configured` if given; otherwise reads `<data>/admin-token`, generating it (mode 0600) on first start.
    static func load(configured: String?, dataDirectory: URL, logger: Logger) throws -> String {
        if let configured, !configured.isEmpty {
            return configured
        }
        let file = dataDirectory.appendingPathComponent("admin-token")
        if let existing = SecretFile.read(file).flatMap({ String(data: $0, encoding: .utf8) }) {
            let token = existing.trimmingCharacters(in: .whitespacesAndNewlines)
            if !token.isEmpty {
                logger.info("admin token read from file", metadata: ["path": "\(file.path)"])
                return token
            }
        }
        let token = AdminKey.randomHex(byteCount: 32)
        try SecretFile.write(Data((token + "\n").utf8), to: file)
        logger.notice("generated a new admin token", metadata: ["path": "\(file.path)"])
        return token
    }
}
