import Foundation
import JWTKit
import Synchronization

/// Verifies user bearer tokens. Thread-safe.
///
/// Accepts compact JWS tokens signed with HS256 (the configured secret; any `kid` is ignored) or with RS256/ES256
/// (the JWKS key named by `kid`, or the only key of that algorithm when the token has no `kid`). The header's `alg`
/// picks the key family, and the key's own algorithm must equal it, so a token cannot steer a key into another
/// algorithm. Verification is synchronous: jwt-kit's actors are used once, in `init`, to build the keys; after that
/// requests only call the keys' signature check. Verified tokens are cached until their `exp` (plus leeway).
final class UserAuthenticator: Sendable {
    /// Largest accepted token, in bytes; a larger one is refused before it is parsed.
    static let maxTokenSize = 8 * 1024
    /// Most verified tokens kept in the cache.
    static let cacheCapacity = 10_000
    /// Most bytes of token text kept in the cache.
    static let cacheByteCapacity = 16 * 1024 * 1024

    /// The configuration the keys came from.
    let configuration: UserAuthConfiguration
    /// The `kid`s of the JWKS keys in use, sorted.
    let keyIDs: [String]
    /// How many keys of the JWKS file were left out as not RS256 or ES256 signing keys.
    let skippedKeyCount: Int

    private let hs256Key: (any JWTAlgorithm)?
    private let keysByID: [String: any JWTAlgorithm]
    private let soleKeyByAlgorithm: [String: any JWTAlgorithm]
    private let jwksAlgorithms: Set<String>
    private let leeway: Double
    private let now: @Sendable () -> Double
    private let cache = Mutex(
        TokenCache(capacity: UserAuthenticator.cacheCapacity, byteCapacity: UserAuthenticator.cacheByteCapacity))
    private let signatureChecks = Atomic<Int>(0)

    /// Loads keys; throws ConfigurationError with a clear message for an unreadable/invalid JWKS file or an empty
    /// (or shorter than 32 bytes) secret.
    convenience init(configuration: UserAuthConfiguration, tokenLookups: CacheLookups? = nil) throws {
        try self.init(configuration: configuration, now: { Date().timeIntervalSince1970 }, tokenLookups: tokenLookups)
    }

    /// Like `init(configuration:)`, reading the time (seconds since 1970) from `now`.
    init(
        configuration: UserAuthConfiguration, now: @escaping @Sendable () -> Double, tokenLookups: CacheLookups? = nil
    ) throws {
        self.tokenLookups = tokenLookups
        if let secret = configuration.hs256Secret {
            guard !secret.isEmpty else {
                throw ConfigurationError(description: "the HS256 secret (TABCONFIG_JWT_HS256_SECRET) is empty")
            }
            guard secret.utf8.count >= 32 else {
                throw ConfigurationError(
                    description: "the HS256 secret (TABCONFIG_JWT_HS256_SECRET) must be at least 32 bytes long")
            }
        }
        guard configuration.leeway >= 0 else {
            throw ConfigurationError(description: "the JWT leeway (TABCONFIG_JWT_LEEWAY) must not be negative")
        }
        if configuration.issuer?.isEmpty == true {
            throw ConfigurationError(description: "the JWT issuer (TABCONFIG_JWT_ISSUER) must not be empty when set")
        }
        if configuration.audience?.isEmpty == true {
            throw ConfigurationError(
                description: "the JWT audience (TABCONFIG_JWT_AUDIENCE) must not be empty when set")
        }
        let file = try configuration.jwksFile.map { try JWKSFile(contentsOf: $0) }
        let keys = try Self.makeKeys(secret: configuration.hs256Secret, jwks: file?.keys ?? [])

        self.configuration = configuration
        self.now = now
        leeway = Double(configuration.leeway)
        hs256Key = keys.hs256
        keysByID = keys.byID
        keyIDs = keys.byID.keys.sorted()
        skippedKeyCount = file?.skippedKeyCount ?? 0
        jwksAlgorithms = Set(keys.byID.values.map(\.name))
        soleKeyByAlgorithm = Dictionary(grouping: keys.byID.values, by: \.name)
            .compactMapValues { $0.count == 1 ? $0[0] : nil }
    }

    /// The verified token's `sub`, from an `Authorization: Bearer <jwt>` header value; or why it is refused.
    func subject(authorization: String?) -> Result<String, UserAuthFailure> {
        do {
            return .success(try verifiedSubject(authorization: authorization))
        } catch {
            return .failure(error)
        }
    }

    /// The `sub` of a token verified before and still cached, or nil (no token, never verified, expired, ...): for
    /// answers decided from the request head, which leave every check to the usual way.
    func cachedSubject(authorization: String?) -> String? {
        guard configuration.isEnabled, let token = try? Self.bearerToken(authorization) else { return nil }
        let now = self.now()
        let subject = cache.withLock { $0.subject(of: token, now: now, leeway: leeway) }
        if subject != nil { tokenLookups?.record(hit: true) }
        return subject
    }

    /// Where the token cache's hits and misses are counted.
    private let tokenLookups: CacheLookups?

    /// How many signature checks have run; cache hits run none.
    var signatureCheckCount: Int { signatureChecks.load(ordering: .relaxed) }

    /// How many verified tokens the cache holds.
    var cachedTokenCount: Int { cache.withLock { $0.count } }

    private func verifiedSubject(authorization: String?) throws(UserAuthFailure) -> String {
        guard configuration.isEnabled else { throw UserAuthFailure(reason: "user authentication is not configured") }
        let token = try Self.bearerToken(authorization)
        let now = self.now()
        let lookup = cache.withLock { $0.lookup(token, now: now, leeway: leeway) }
        if case .hit = lookup { tokenLookups?.record(hit: true) } else { tokenLookups?.record(hit: false) }
        switch lookup {
        case .hit(let subject): return subject
        case .expired: throw UserAuthFailure(reason: "token expired")
        case .miss: break
        }
        let entry = try verify(Array(token.utf8), now: now)
        cache.withLock { $0.insert(token, entry, now: now, leeway: leeway) }
        return entry.subject
    }

    /// The token of a `Bearer` authorization (scheme case-insensitive), refusing one over `maxTokenSize` unparsed.
    private static func bearerToken(_ authorization: String?) throws(UserAuthFailure) -> String {
        guard let authorization, !authorization.isEmpty else { throw UserAuthFailure(reason: "missing bearer token") }
        let utf8 = authorization.utf8
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let schemeEnd = utf8.firstIndex(where: isBlank) ?? utf8.endIndex
        guard utf8[..<schemeEnd].elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }) else {
            throw UserAuthFailure(reason: "expected an Authorization header with a Bearer token")
        }
        guard let start = utf8[schemeEnd...].firstIndex(where: { !isBlank($0) }),
            let last = utf8[start...].lastIndex(where: { !isBlank($0) })
        else {
            throw UserAuthFailure(reason: "missing bearer token")
        }
        let token = utf8[start...last]
        guard token.count <= maxTokenSize else { throw UserAuthFailure(reason: "token too large") }
        return String(Substring(token))
    }

    /// Every check of a token that is not cached: header, key, signature, then claims.
    private func verify(_ token: [UInt8], now: Double) throws(UserAuthFailure) -> TokenCache.Entry {
        let parsed = try CompactToken(token)
        let key = try key(for: parsed)
        let signature = try parsed.signature()
        signatureChecks.add(1, ordering: .relaxed)
        guard (try? key.verify(signature, signs: parsed.signingInput)) == true else {
            throw UserAuthFailure(reason: "invalid signature")
        }
        let claims = try parsed.claims()
        guard let expiresAt = claims.exp else { throw UserAuthFailure(reason: "token has no exp") }
        guard now <= expiresAt + leeway else { throw UserAuthFailure(reason: "token expired") }
        if let notBefore = claims.nbf, now + leeway < notBefore {
            throw UserAuthFailure(reason: "token not yet valid")
        }
        if let issuedAt = claims.iat, now + leeway < issuedAt {
            throw UserAuthFailure(reason: "token issued in the future")
        }
        if let issuer = configuration.issuer, claims.iss != issuer {
            throw UserAuthFailure(reason: "token has the wrong issuer")
        }
        if let audience = configuration.audience, claims.aud?.values.contains(audience) != true {
            throw UserAuthFailure(reason: "token is not meant for this audience")
        }
        guard let subject = claims.sub, !subject.isEmpty else { throw UserAuthFailure(reason: "token has no subject") }
        return TokenCache.Entry(subject: subject, expiresAt: expiresAt)
    }

    /// The key for the token's `alg` and `kid`, whose own algorithm is that `alg`.
    private func key(for token: CompactToken) throws(UserAuthFailure) -> any JWTAlgorithm {
        let algorithm = token.algorithm
        switch algorithm {
        case "HS256":
            guard let hs256Key else { throw UserAuthFailure(reason: "HS256 tokens are not accepted") }
            return hs256Key
        case "RS256", "ES256":
            guard jwksAlgorithms.contains(algorithm) else {
                throw UserAuthFailure(reason: "\(algorithm) tokens are not accepted")
            }
            guard let keyID = token.keyID else {
                guard let key = soleKeyByAlgorithm[algorithm] else { throw UserAuthFailure(reason: "token has no kid") }
                return key
            }
            guard let key = keysByID[keyID] else { throw UserAuthFailure(reason: "unknown kid") }
            guard key.name == algorithm else { throw UserAuthFailure(reason: "the token's alg does not match its key") }
            return key
        default:
            if algorithm.lowercased() == "none" { throw UserAuthFailure(reason: "unsigned tokens are not accepted") }
            throw UserAuthFailure(reason: "unsupported alg; expected HS256, RS256 or ES256")
        }
    }
}

extension UserAuthenticator {
    /// The signature checkers jwt-kit builds for the configured keys.
    private struct Keys: Sendable {
        var hs256: (any JWTAlgorithm)?
        var byID: [String: any JWTAlgorithm] = [:]
    }

    /// Builds the checkers through jwt-kit's key collection, which is an actor; runs on the calling thread.
    private static func makeKeys(secret: String?, jwks: [JWK]) throws -> Keys {
        try CallerThreadExecutor.run {
            var keys = Keys()
            if let secret {
                let collection = JWTKeyCollection()
                await collection.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
                keys.hs256 = try await collection.getKey()
            }
            let collection = JWTKeyCollection()
            for jwk in jwks {
                guard let kid = jwk.keyIdentifier, let algorithm = jwk.algorithm else { continue }
                try await collection.add(jwk: jwk)
                let key = try await collection.getKey(for: kid, alg: algorithm.rawValue)
                guard key.name == algorithm.rawValue else {
                    throw ConfigurationError(
                        description: "JWKS key '\(kid.string)' loaded as \(key.name), not \(algorithm.rawValue)")
                }
                keys.byID[kid.string] = key
            }
            return keys
        }
    }
}

/// Why a token was refused (always HTTP 401); `reason` is safe to show to the client (no key material).
struct UserAuthFailure: Error, Equatable, Sendable {
    var reason: String
}
