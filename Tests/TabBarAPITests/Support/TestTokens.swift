import Foundation
import JWTKit
import Synchronization
import Testing
import TestSupport

@testable import TabBarAPI

/// Claims of a minted test token; `nil` members are left out of the token.
struct TestClaims: JWTPayload {
    var sub: String? = "user-1"
    var iss: String?
    var aud: TestAudience?
    var exp: Double?
    var nbf: Double?
    var iat: Double?
    /// Padding to make a token large.
    var filler: String?

    /// Valid for an hour from `now`, issued at `now`.
    static func valid(subject: String? = "user-1", now: Double = Date().timeIntervalSince1970) -> TestClaims {
        TestClaims(sub: subject, exp: now + 3600, iat: now)
    }

    /// The authenticator under test does the checking, so the minting side checks nothing.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// `aud` as a single string or as an array.
enum TestAudience: Codable, Sendable {
    case one(String)
    case many([String])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) {
            self = .one(value)
        } else {
            self = .many(try container.decode([String].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .one(let value): try container.encode(value)
        case .many(let values): try container.encode(values)
        }
    }
}

/// Keys generated once per test run, and tokens minted with them through jwt-kit.
struct TestKeys: Sendable {
    static let shared = TestKeys()

    static let secret = "test-hs256-secret-0123456789abcdef0123"
    static let otherSecret = "another-hs256-secret-0123456789abcdef"
    static let rsaID = "rsa-1"
    static let ecID = "ec-1"
    static let secondECID = "ec-2"

    let rsa: Insecure.RSA.PrivateKey
    let otherRSA: Insecure.RSA.PrivateKey
    let ec = ES256PrivateKey()
    let secondEC = ES256PrivateKey()
    let otherEC = ES256PrivateKey()

    private init() {
        do {
            rsa = try Insecure.RSA.PrivateKey(backing: .init(keySize: .bits2048))
            otherRSA = try Insecure.RSA.PrivateKey(backing: .init(keySize: .bits2048))
        } catch {
            fatalError("cannot generate an RSA test key: \(error)")
        }
    }

    /// The public JWK of `key` (RS256).
    static func jwk(rsa key: Insecure.RSA.PrivateKey, kid: String, alg: String? = "RS256") throws -> [String: String] {
        let primitives = try key.publicKey.getKeyPrimitives()
        var jwk = [
            "kty": "RSA", "kid": kid, "use": "sig",
            "n": base64URL(primitives.modulus), "e": base64URL(primitives.publicExponent),
        ]
        jwk["alg"] = alg
        return jwk
    }

    /// The public JWK of `key` (ES256 on P-256).
    static func jwk(ec key: ES256PrivateKey, kid: String, alg: String? = "ES256") throws -> [String: String] {
        let parameters = try #require(key.parameters)
        var jwk = ["kty": "EC", "crv": "P-256", "kid": kid, "x": parameters.x, "y": parameters.y]
        jwk["alg"] = alg
        return jwk
    }

    /// Writes `{"keys": keys}` into a new temporary directory and returns the file.
    static func writeJWKS(_ keys: [[String: String]]) throws -> URL {
        let file = try TemporaryDirectory().url.appendingPathComponent("jwks.json")
        let data = try JSONSerialization.data(withJSONObject: ["keys": keys], options: [.sortedKeys])
        try data.write(to: file)
        return file
    }

    /// A JWKS file with the RS256 and the first ES256 public key.
    func writeStandardJWKS() throws -> URL {
        try Self.writeJWKS([Self.jwk(rsa: rsa, kid: Self.rsaID), Self.jwk(ec: ec, kid: Self.ecID)])
    }

    /// An HS256 token signed with `secret`; `header` may override `alg` or add members.
    static func hs256(
        _ claims: TestClaims, secret: String = TestKeys.secret, digest: DigestAlgorithm = .sha256,
        header: JWTHeader = JWTHeader()
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: digest)
        return try await keys.sign(claims, header: header)
    }

    /// An RS256 token signed with `key`, its header naming `kid` (none when `nil`).
    static func rs256(
        _ claims: TestClaims, key: Insecure.RSA.PrivateKey, kid: String?, header: JWTHeader = JWTHeader()
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(rsa: key, digestAlgorithm: .sha256, kid: kid.map { JWKIdentifier(string: $0) })
        return try await keys.sign(claims, kid: kid.map { JWKIdentifier(string: $0) }, header: header)
    }

    /// An ES256 token signed with `key`, its header naming `kid` (none when `nil`).
    static func es256(
        _ claims: TestClaims, key: ES256PrivateKey, kid: String?, header: JWTHeader = JWTHeader()
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: kid.map { JWKIdentifier(string: $0) })
        return try await keys.sign(claims, kid: kid.map { JWKIdentifier(string: $0) }, header: header)
    }

    /// A token assembled by hand from JSON header and claims and an already-encoded signature.
    static func assembled(header: String, claims: String, signature: String = "") -> String {
        "\(base64URL(Data(header.utf8))).\(base64URL(Data(claims.utf8))).\(signature)"
    }

    /// `header` with `alg` set to `algorithm`.
    static func header(alg algorithm: String, kid: String? = nil) -> JWTHeader {
        var header = JWTHeader()
        header.alg = algorithm
        header.kid = kid
        return header
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let seconds: Mutex<Double>

    init(_ seconds: Double = Date().timeIntervalSince1970) {
        self.seconds = Mutex(seconds)
    }

    var now: Double { seconds.withLock { $0 } }

    func advance(by interval: Double) {
        seconds.withLock { $0 += interval }
    }
}
