import Foundation

/// The admin keys file: `{"keys": [{"name": "ci", "scope": "publish", "sha256": "<64 hex digits>"}, …]}`.
///
/// It holds no token, only each token's SHA-256 digest: `tabconfig keys add` writes an entry and prints its token
/// once. Names and digests are unique; an entry with any other member is refused, so a misspelt one cannot go
/// unnoticed.
public struct AdminKeysFile: Sendable, Equatable {
    public var keys: [AdminKey]

    public init(keys: [AdminKey] = []) {
        self.keys = keys
    }

    /// Reads and checks `url`; the error names the file and, for a bad entry, its position.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ConfigurationError(description: "cannot read the admin keys file \(url.path): \(error.localizedDescription)")
        }
        try self.init(data: data, path: url.path)
    }

    /// Parses and checks the file's bytes; `path` names it in errors.
    public init(data: Data, path: String) throws {
        func failure(_ detail: String) -> ConfigurationError {
            ConfigurationError(description: "admin keys file \(path): \(detail)")
        }
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = root["keys"] as? [Any], root.count == 1
        else {
            throw failure(#"expected {"keys": [{"name": …, "scope": …, "sha256": …}, …]}"#)
        }
        var keys: [AdminKey] = []
        for (index, entry) in entries.enumerated() {
            guard let object = entry as? [String: Any] else { throw failure("keys[\(index)] is not an object") }
            if object["token"] != nil {
                throw failure(
                    "keys[\(index)] holds a token; the file keeps only its SHA-256 (sha256), which "
                        + "`tabconfig keys add` writes")
            }
            if let other = object.keys.sorted().first(where: { !["name", "scope", "sha256"].contains($0) }) {
                throw failure("keys[\(index)] has the unknown member '\(other)' (expected name, scope, sha256)")
            }
            guard let name = object["name"] as? String, AdminKey.isValidName(name) else {
                throw failure("keys[\(index)].name must be 1 to 64 of A-Z a-z 0-9 . _ -")
            }
            guard let scopeText = object["scope"] as? String, let scope = AdminScope(rawValue: scopeText) else {
                throw failure("keys[\(index)].scope must be read, publish or admin")
            }
            guard let hex = object["sha256"] as? String, let digest = Self.digest(hex: hex) else {
                throw failure("keys[\(index)].sha256 must be 64 hex digits (the SHA-256 of the token)")
            }
            if keys.contains(where: { $0.name == name }) {
                throw failure("more than one key is named '\(name)'")
            }
            if let twin = keys.first(where: { $0.digest == digest }) {
                throw failure("keys '\(twin.name)' and '\(name)' have the same token")
            }
            keys.append(AdminKey(name: name, scope: scope, digest: digest))
        }
        self.keys = keys
    }

    /// The file's bytes: pretty-printed, one member per line, keys in the order given.
    public func encoded() -> Data {
        let entries = keys.map { ["name": $0.name, "scope": $0.scope.rawValue, "sha256": $0.digestHex] }
        let data = try! JSONSerialization.data(  // Strings only: always encodable.
            withJSONObject: ["keys": entries], options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return data + Data("\n".utf8)
    }

    private static func digest(hex: String) -> [UInt8]? {
        guard hex.wholeMatch(of: /[0-9A-Fa-f]{64}/) != nil else { return nil }
        let digits = Array(hex.utf8)
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}
