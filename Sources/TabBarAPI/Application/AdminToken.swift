import Foundation
import Logging
import TabBarStore

/// The bearer token that opens the admin endpoints.
struct AdminToken: Sendable {
    private let bytes: [UInt8]

    init(_ token: String) {
        bytes = Array(token.utf8)
    }

    /// Uses `configured` if given; otherwise reads `<data>/admin-token`, generating it (mode 0600) on first start.
    static func load(configured: String?, dataDirectory: URL, logger: Logger) throws -> AdminToken {
        if let configured, !configured.isEmpty {
            return AdminToken(configured)
        }
        let file = dataDirectory.appendingPathComponent("admin-token")
        if let existing = SecretFile.read(file).flatMap({ String(data: $0, encoding: .utf8) }) {
            let token = existing.trimmingCharacters(in: .whitespacesAndNewlines)
            if !token.isEmpty {
                logger.info("admin token read from file", metadata: ["path": "\(file.path)"])
                return AdminToken(token)
            }
        }
        var random = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &random)) }.joined()
        try SecretFile.write(Data((token + "\n").utf8), to: file)
        logger.notice("generated a new admin token", metadata: ["path": "\(file.path)"])
        return AdminToken(token)
    }

    /// Whether the `Authorization` header carries this token; compares in constant time.
    func authorizes(_ authorization: String?) -> Bool {
        guard let authorization else { return false }
        let prefix = "bearer "
        guard authorization.count > prefix.count, authorization.lowercased().hasPrefix(prefix) else { return false }
        let presented = Array(authorization.utf8.dropFirst(prefix.utf8.count))
        var difference = UInt8(truncatingIfNeeded: presented.count ^ bytes.count)
        for index in 0..<bytes.count {
            let other = index < presented.count ? presented[index] : 0
            difference |= bytes[index] ^ other
        }
        return difference == 0
    }
}
