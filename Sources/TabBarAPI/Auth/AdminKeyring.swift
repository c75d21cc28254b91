import Foundation
import Synchronization

/// The admin keys in force: those of the keys file, re-read by ``reload()`` (on SIGHUP), and the token's key
/// (`TABCONFIG_ADMIN_TOKEN`, or the token generated into the data directory when no keys file is configured).
///
/// A reload swaps the whole set at once, so a request is checked against the old set or the new one, never a mix;
/// a file that cannot be read or does not check keeps the set in force. Tokens are compared by their SHA-256
/// digests, in time independent of where a digest differs.
final class AdminKeyring: Sendable {
    /// Why a request's credentials were refused (the reasons counted by the auth failure metric).
    enum Failure: String, Error {
        case missing = "missing token"
        case unknown = "unknown token"
    }

    /// The keys file, when one is configured.
    let file: URL?
    private let tokenKey: AdminKey?
    private let keys: Mutex<[AdminKey]>

    /// Reads the keys file; throws a `ConfigurationError` when it cannot be read or checked.
    init(file: URL?, tokenKey: AdminKey?) throws {
        self.file = file
        self.tokenKey = tokenKey
        keys = Mutex(try Self.read(file, tokenKey: tokenKey))
    }

    /// The keys in force.
    var current: [AdminKey] { keys.withLock { $0 } }

    /// Re-reads the keys file and puts its keys in force; returns them. Throws, leaving the keys in force as they
    /// were, when the file cannot be read or does not check.
    @discardableResult
    func reload() throws -> [AdminKey] {
        let fresh = try Self.read(file, tokenKey: tokenKey)
        keys.withLock { $0 = fresh }
        return fresh
    }

    /// The key an `Authorization: Bearer <token>` header presents.
    func authenticate(_ authorization: String?) -> Result<AdminKey, Failure> {
        guard let authorization else { return .failure(.missing) }
        let prefix = "bearer "
        guard authorization.utf8.count > prefix.utf8.count, authorization.lowercased().hasPrefix(prefix) else {
            return .failure(.unknown)
        }
        let digest = AdminKey.digest(of: String(authorization.dropFirst(prefix.count)))
        var found: AdminKey?
        for key in current {
            var difference: UInt8 = 0
            for index in 0..<digest.count {
                difference |= digest[index] ^ key.digest[index]
            }
            if difference == 0 { found = key }
        }
        return found.map { .success($0) } ?? .failure(.unknown)
    }

    private static func read(_ file: URL?, tokenKey: AdminKey?) throws -> [AdminKey] {
        let listed = try file.map { try AdminKeysFile(contentsOf: $0).keys } ?? []
        guard let tokenKey else { return listed }
        if let file, listed.contains(where: { $0.name == tokenKey.name }) {
            throw ConfigurationError(
                description: "admin keys file \(file.path): the name '\(tokenKey.name)' belongs to the admin token's key")
        }
        if let file, let twin = listed.first(where: { $0.digest == tokenKey.digest }) {
            throw ConfigurationError(
                description: "admin keys file \(file.path): key '\(twin.name)' has the admin token's token")
        }
        return [tokenKey] + listed
    }
}
