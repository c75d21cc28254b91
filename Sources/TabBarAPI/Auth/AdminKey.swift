import Crypto
import Foundation

/// A named admin bearer key and its scope. Only the SHA-256 digest of the token is held, as in the keys file.
public struct AdminKey: Sendable, Equatable {
    /// The key's name, which the audit log records: 1 to 64 of `A-Z a-z 0-9 . _ -`.
    public var name: String
    public var scope: AdminScope
    /// SHA-256 of the token's UTF-8 bytes (32 bytes).
    public var digest: [UInt8]

    public init(name: String, scope: AdminScope, digest: [UInt8]) {
        self.name = name
        self.scope = scope
        self.digest = digest
    }

    /// A key for `token`, which is hashed at once.
    public init(name: String, scope: AdminScope, token: String) {
        self.init(name: name, scope: scope, digest: Self.digest(of: token))
    }

    /// SHA-256 of the token's UTF-8 bytes.
    public static func digest(of token: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(token.utf8)))
    }

    /// A new random token: `tck_` and 64 hex digits (256 bits from the system's generator).
    public static func generateToken() -> String {
        "tck_" + randomHex(byteCount: 32)
    }

    /// `byteCount` bytes from the system's generator as lower-case hex digits.
    static func randomHex(byteCount: Int) -> String {
        var random = SystemRandomNumberGenerator()
        return hex((0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// The digest as 64 lower-case hex digits, as the keys file writes it.
    public var digestHex: String { Self.hex(digest) }

    /// Whether `name` can name a key.
    public static func isValidName(_ name: String) -> Bool {
        name.wholeMatch(of: /[A-Za-z0-9._\-]{1,64}/) != nil
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }
}

/// What an admin key may do. Each scope includes the ones before it: `publish` can read, `admin` can publish.
public enum AdminScope: String, Sendable, Codable, CaseIterable, Comparable {
    /// List clients, read configs, versions and explanations, dry-run a publish.
    case read
    /// Also publish, roll back and import.
    case publish
    /// Also delete clients and read the audit log.
    case admin

    public static func < (lhs: AdminScope, rhs: AdminScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
