import Foundation
import JWTKit

/// The RS256 and ES256 signing keys of a JSON Web Key Set file (RFC 7517).
///
/// Keys meant for encryption (`use` other than `sig`), other key types, curves and algorithms are left out, so an
/// identity provider's full key set can be used as it is. Every kept key needs a unique `kid`; private parts are
/// dropped, and `alg` is filled in from `kty` and `crv` when the file omits it.
struct JWKSFile: Sendable {
    /// The kept keys, each with `alg` set to RS256 or ES256.
    var keys: [JWK]
    /// How many keys of the file were left out as not RS256 or ES256 signing keys.
    var skippedKeyCount: Int

    /// Reads and checks `url`; the error names the file and, for a bad key, its position and `kid`.
    init(contentsOf url: URL) throws {
        let path = url.path
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ConfigurationError(description: "cannot read JWKS file \(path): \(Self.describe(error))")
        }
        let set: RawKeySet
        do {
            set = try JSONDecoder().decode(RawKeySet.self, from: data)
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            throw ConfigurationError(description: "JWKS file \(path) is not valid JSON")
        } catch {
            throw ConfigurationError(
                description: "JWKS file \(path) is not a JSON Web Key Set ({\"keys\": [...]}): \(Self.describe(error))")
        }
        var keys: [JWK] = []
        var identifiers: Set<String> = []
        for (index, raw) in set.keys.enumerated() {
            let key: JWK?
            do {
                key = try Self.signingKey(raw)
            } catch {
                let name = raw.kid.map { " ('\($0)')" } ?? ""
                throw ConfigurationError(description: "JWKS file \(path): key \(index)\(name) \(error.description)")
            }
            guard let key, let kid = key.keyIdentifier?.string else { continue }
            guard identifiers.insert(kid).inserted else {
                throw ConfigurationError(description: "JWKS file \(path): more than one key has kid '\(kid)'")
            }
            keys.append(key)
        }
        guard !keys.isEmpty else {
            throw ConfigurationError(description: "JWKS file \(path) holds no RS256 or ES256 signing key")
        }
        self.keys = keys
        skippedKeyCount = set.keys.count - keys.count
    }

    /// The public signing key `raw` describes, `nil` for a key of another kind, or why a would-be key is unusable.
    private static func signingKey(_ raw: RawKey) throws(ConfigurationError) -> JWK? {
        if let use = raw.use, use != "sig" { return nil }
        switch raw.kty {
        case "RSA":
            guard raw.alg == nil || raw.alg == "RS256" else { return nil }
            guard let kid = raw.kid, !kid.isEmpty else { throw ConfigurationError(description: "has no kid") }
            guard let modulus = raw.n, let exponent = raw.e else {
                throw ConfigurationError(description: "is an RSA key without n or e")
            }
            do {
                _ = try Insecure.RSA.PublicKey(modulus: modulus, exponent: exponent)
            } catch {
                throw ConfigurationError(description: "is not a usable RSA public key: \(describe(error))")
            }
            return JWK.rsa(.rs256, identifier: JWKIdentifier(string: kid), modulus: modulus, exponent: exponent)
        case "EC":
            guard raw.alg == nil || raw.alg == "ES256" else { return nil }
            guard raw.crv == "P-256" else {
                if raw.alg == nil { return nil }
                throw ConfigurationError(description: "is an ES256 key whose crv is not P-256")
            }
            guard let kid = raw.kid, !kid.isEmpty else { throw ConfigurationError(description: "has no kid") }
            guard let x = raw.x, let y = raw.y else {
                throw ConfigurationError(description: "is an EC key without x or y")
            }
            do {
                _ = try ES256PublicKey(parameters: (x: x, y: y))
            } catch {
                throw ConfigurationError(description: "is not a usable P-256 public key: \(describe(error))")
            }
            return JWK.ecdsa(.es256, identifier: JWKIdentifier(string: kid), x: x, y: y, curve: .p256)
        default:
            return nil
        }
    }

    /// A one-line description of `error` that stays readable for decoding errors.
    private static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "top level" : path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch decoding {
        case .typeMismatch(let type, let context): return "\(at(context.codingPath)) is not a \(type)"
        case .valueNotFound(let type, let context): return "\(at(context.codingPath)) is null, expected \(type)"
        case .keyNotFound(let key, let context): return "\(at(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context): return "\(at(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

extension JWKSFile {
    /// The file's top level, before any key is interpreted.
    private struct RawKeySet: Decodable {
        var keys: [RawKey]
    }

    /// The members of one key that matter here; other members are ignored.
    private struct RawKey: Decodable {
        var kty: String
        var use: String?
        var alg: String?
        var kid: String?
        var crv: String?
        var n: String?
        var e: String?
        var x: String?
        var y: String?
    }
}
