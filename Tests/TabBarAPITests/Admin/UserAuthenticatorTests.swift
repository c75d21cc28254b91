import Foundation
import JWTKit
import Synchronization
import Testing
import TestSupport

@testable import TabBarAPI

@Suite("User authentication with JWTs")
struct UserAuthenticatorTests {
    let keys = TestKeys.shared

    /// An authenticator for the HS256 secret and a JWKS file with one RS256 and one ES256 key, after `configure`.
    func authenticator(
        clock: TestClock? = nil, _ configure: (inout UserAuthConfiguration) throws -> Void = { _ in }
    ) throws -> UserAuthenticator {
        var configuration = UserAuthConfiguration()
        let standardJWKS = try keys.writeStandardJWKS()
        defer { Self.removeDirectory(of: standardJWKS) }
        configuration.hs256Secret = TestKeys.secret
        configuration.jwksFile = standardJWKS
        try configure(&configuration)
        guard let clock else { return try UserAuthenticator(configuration: configuration) }
        return try UserAuthenticator(configuration: configuration, now: { clock.now })
    }

    static func removeDirectory(of file: URL?) {
        guard let file else { return }
        try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
    }

    /// The refusal reason, or `nil` when the token was accepted.
    func reason(_ authenticator: UserAuthenticator, _ token: String) -> String? {
        guard case .failure(let failure) = authenticator.subject(authorization: "Bearer \(token)") else { return nil }
        return failure.reason
    }

    func subject(_ authenticator: UserAuthenticator, _ token: String) -> String? {
        try? authenticator.subject(authorization: "Bearer \(token)").get()
    }

    /// The `ConfigurationError` message `body` throws.
    func configurationError(_ body: () throws -> Void) throws -> String {
        let error = try #require(throws: ConfigurationError.self) { try body() }
        return error.description
    }

    // MARK: Accepted tokens

    @Test func acceptsEachKindOfTokenWithItsSubject() async throws {
        let auth = try authenticator()
        let hs = try await TestKeys.hs256(.valid(subject: "alice"))
        let rs = try await TestKeys.rs256(.valid(subject: "bob"), key: keys.rsa, kid: TestKeys.rsaID)
        let es = try await TestKeys.es256(.valid(subject: "carol"), key: keys.ec, kid: TestKeys.ecID)
        #expect(auth.subject(authorization: "Bearer \(hs)") == .success("alice"))
        #expect(auth.subject(authorization: "Bearer \(rs)") == .success("bob"))
        #expect(auth.subject(authorization: "Bearer \(es)") == .success("carol"))
        #expect(auth.keyIDs == [TestKeys.ecID, TestKeys.rsaID])
    }

    @Test func acceptsTokensWithoutKidWhenOneKeyHasTheirAlgorithm() async throws {
        let auth = try authenticator()
        let rs = try await TestKeys.rs256(.valid(subject: "dave"), key: keys.rsa, kid: nil)
        let es = try await TestKeys.es256(.valid(subject: "erin"), key: keys.ec, kid: nil)
        #expect(subject(auth, rs) == "dave")
        #expect(subject(auth, es) == "erin")
    }

    @Test func schemeIsCaseInsensitiveAndSurroundingSpaceIgnored() async throws {
        let auth = try authenticator()
        let token = try await TestKeys.hs256(.valid())
        #expect(auth.subject(authorization: "bearer \(token)") == .success("user-1"))
        #expect(auth.subject(authorization: "BEARER   \(token)  ") == .success("user-1"))
    }

    // MARK: Authorization header

    @Test func refusesMissingOrNonBearerAuthorization() async throws {
        let auth = try authenticator()
        let token = try await TestKeys.hs256(.valid())
        for header in [nil, "", "Bearer", "Bearer    ", "Basic dXNlcjpwYXNz", "Token \(token)", "Bearer\(token)"] {
            guard case .failure = auth.subject(authorization: header) else {
                Issue.record("accepted authorization \(header ?? "nil")")
                continue
            }
        }
        #expect(auth.subject(authorization: nil) == .failure(UserAuthFailure(reason: "missing bearer token")))
        #expect(auth.signatureCheckCount == 0)
    }

    @Test func refusesTokensOver8KiBWithoutParsing() async throws {
        let auth = try authenticator()
        #expect(reason(auth, String(repeating: "a", count: 8 * 1024 + 1)) == "token too large")
        var claims = TestClaims.valid()
        claims.filler = String(repeating: "x", count: 7 * 1024)
        let large = try await TestKeys.hs256(claims)
        #expect(large.utf8.count > 8 * 1024)
        #expect(reason(auth, large) == "token too large")
        #expect(auth.signatureCheckCount == 0)
        claims.filler = String(repeating: "x", count: 5 * 1024)
        let fits = try await TestKeys.hs256(claims)
        #expect(fits.utf8.count <= 8 * 1024)
        #expect(subject(auth, fits) == "user-1")
    }

    // MARK: Malformed tokens

    @Test func refusesMalformedTokens() async throws {
        let auth = try authenticator()
        let valid = try await TestKeys.hs256(.valid())
        let parts = valid.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let malformed = [
            "abc", "a.b", "\(valid).x", "\(parts[0]).\(parts[1])", "!!!.\(parts[1]).\(parts[2])",
            "\(parts[0]).\(parts[1]).!!!", "\(parts[0]).\(parts[1]).",
            TestKeys.assembled(header: "not json", claims: #"{"sub":"x"}"#, signature: parts[2]),
            TestKeys.assembled(header: #"{"typ":"JWT"}"#, claims: #"{"sub":"x"}"#, signature: parts[2]),
            TestKeys.assembled(header: #"{"alg":256}"#, claims: #"{"sub":"x"}"#, signature: parts[2]),
        ]
        for token in malformed {
            let refusal = try #require(reason(auth, token), "accepted \(token)")
            #expect(refusal.hasPrefix("malformed token"), "\(token): \(refusal)")
        }
    }

    @Test func refusesClaimsOfTheWrongType() async throws {
        let auth = try authenticator()
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: TestKeys.secret), digestAlgorithm: .sha256)
        let token = try await keys.sign(TextExpiryClaims(sub: "user-1", exp: "tomorrow"))
        #expect(reason(auth, token)?.hasPrefix("malformed token") == true)
    }

    @Test func refusesCriticalHeaderExtensions() async throws {
        let auth = try authenticator()
        var header = JWTHeader()
        header.crit = ["exp"]
        let token = try await TestKeys.hs256(.valid(), header: header)
        #expect(reason(auth, token) == "unsupported critical header parameters")
    }

    // MARK: Algorithms

    @Test(arguments: ["none", "None", "NONE", "nOnE"])
    func refusesUnsignedTokens(alg: String) async throws {
        let auth = try authenticator()
        let unsigned = TestKeys.assembled(
            header: #"{"alg":"\#(alg)","typ":"JWT"}"#, claims: #"{"sub":"mallory","exp":4102444800}"#)
        #expect(reason(auth, unsigned) == "unsigned tokens are not accepted")
        let withSignature = try await TestKeys.hs256(.valid(), header: TestKeys.header(alg: alg))
        #expect(reason(auth, withSignature) == "unsigned tokens are not accepted")
    }

    @Test func refusesUnsupportedAlgorithms() async throws {
        let auth = try authenticator()
        let hs512 = try await TestKeys.hs256(.valid(), secret: String(repeating: "k", count: 64), digest: .sha512)
        let rs384Keys = JWTKeyCollection()
        await rs384Keys.add(rsa: keys.rsa, digestAlgorithm: .sha384, kid: JWKIdentifier(string: TestKeys.rsaID))
        let rs384 = try await rs384Keys.sign(TestClaims.valid(), kid: JWKIdentifier(string: TestKeys.rsaID))
        let ps256Keys = JWTKeyCollection()
        await ps256Keys.add(pss: keys.rsa, digestAlgorithm: .sha256, kid: JWKIdentifier(string: TestKeys.rsaID))
        let ps256 = try await ps256Keys.sign(TestClaims.valid(), kid: JWKIdentifier(string: TestKeys.rsaID))
        for token in [hs512, rs384, ps256] {
            #expect(reason(auth, token) == "unsupported alg; expected HS256, RS256 or ES256")
        }
    }

    @Test func hs256TokenCannotUseAnRSAPublicKeyAsItsSecret() async throws {
        let publicPEM = keys.rsa.publicKey.pemRepresentation
        let forged = try await TestKeys.hs256(
            .valid(subject: "mallory"), secret: publicPEM, header: TestKeys.header(alg: "HS256", kid: TestKeys.rsaID))
        let auth = try authenticator()
        #expect(reason(auth, forged) == "invalid signature")
        let jwksOnly = try authenticator { $0.hs256Secret = nil }
        #expect(reason(jwksOnly, forged) == "HS256 tokens are not accepted")
    }

    @Test func asymmetricAlgorithmIsNotCheckedWithTheSharedSecret() async throws {
        let auth = try authenticator()
        let rsHeader = try await TestKeys.hs256(.valid(), header: TestKeys.header(alg: "RS256", kid: TestKeys.rsaID))
        let esHeader = try await TestKeys.hs256(.valid(), header: TestKeys.header(alg: "ES256", kid: TestKeys.ecID))
        #expect(reason(auth, rsHeader) == "invalid signature")
        #expect(reason(auth, esHeader) == "invalid signature")
        let secretOnly = try authenticator { $0.jwksFile = nil }
        let rs = try await TestKeys.rs256(.valid(), key: keys.rsa, kid: TestKeys.rsaID)
        #expect(reason(secretOnly, rs) == "RS256 tokens are not accepted")
    }

    @Test func algorithmMustMatchTheKeyNamedByKid() async throws {
        let auth = try authenticator()
        let rsForECKey = try await TestKeys.rs256(.valid(), key: keys.rsa, kid: TestKeys.ecID)
        let esForRSAKey = try await TestKeys.es256(.valid(), key: keys.ec, kid: TestKeys.rsaID)
        #expect(reason(auth, rsForECKey) == "the token's alg does not match its key")
        #expect(reason(auth, esForRSAKey) == "the token's alg does not match its key")
        #expect(auth.signatureCheckCount == 0)
    }

    // MARK: Keys and signatures

    @Test func refusesBadSignaturesAndWrongKeys() async throws {
        let auth = try authenticator()
        let valid = try await TestKeys.hs256(.valid(subject: "alice"))
        let other = try await TestKeys.hs256(.valid(subject: "mallory"))
        let parts = valid.split(separator: ".").map(String.init)
        let otherParts = other.split(separator: ".").map(String.init)
        let tokens = [
            "\(parts[0]).\(otherParts[1]).\(parts[2])",
            "\(parts[0]).\(parts[1]).\(parts[2].dropLast(4))",
            try await TestKeys.hs256(.valid(), secret: TestKeys.otherSecret),
            try await TestKeys.rs256(.valid(), key: keys.otherRSA, kid: TestKeys.rsaID),
            try await TestKeys.es256(.valid(), key: keys.otherEC, kid: TestKeys.ecID),
            try await TestKeys.rs256(.valid(), key: keys.otherRSA, kid: nil),
        ]
        for token in tokens {
            #expect(reason(auth, token) == "invalid signature", "\(token)")
        }
    }

    @Test func refusesUnknownKid() async throws {
        let auth = try authenticator()
        let token = try await TestKeys.rs256(.valid(), key: keys.rsa, kid: "rsa-unknown")
        #expect(reason(auth, token) == "unknown kid")
    }

    @Test func tokenWithoutKidIsRefusedWhenSeveralKeysShareItsAlgorithm() async throws {
        let jwks = try TestKeys.writeJWKS([
            TestKeys.jwk(ec: keys.ec, kid: TestKeys.ecID), TestKeys.jwk(ec: keys.secondEC, kid: TestKeys.secondECID),
        ])
        defer { Self.removeDirectory(of: jwks) }
        var configuration = UserAuthConfiguration()
        configuration.jwksFile = jwks
        let auth = try UserAuthenticator(configuration: configuration)
        let withoutKid = try await TestKeys.es256(.valid(), key: keys.secondEC, kid: nil)
        let withKid = try await TestKeys.es256(.valid(subject: "second"), key: keys.secondEC, kid: TestKeys.secondECID)
        #expect(reason(auth, withoutKid) == "token has no kid")
        #expect(subject(auth, withKid) == "second")
        let hs = try await TestKeys.hs256(.valid())
        #expect(reason(auth, hs) == "HS256 tokens are not accepted")
    }

    // MARK: Claims

    @Test func expiryIsRequiredAndHonoursLeeway() async throws {
        let now = Date().timeIntervalSince1970
        let auth = try authenticator()
        let strict = try authenticator { $0.leeway = 0 }
        var claims = TestClaims.valid()
        claims.exp = nil
        #expect(reason(auth, try await TestKeys.hs256(claims)) == "token has no exp")
        claims.exp = now - 3600
        #expect(reason(auth, try await TestKeys.hs256(claims)) == "token expired")
        claims.exp = now - 10
        let recentlyExpired = try await TestKeys.hs256(claims)
        #expect(subject(auth, recentlyExpired) == "user-1")
        #expect(reason(strict, recentlyExpired) == "token expired")
    }

    @Test func notBeforeAndIssuedAtInTheFutureAreRefusedBeyondLeeway() async throws {
        let now = Date().timeIntervalSince1970
        let auth = try authenticator()
        var claims = TestClaims.valid(now: now)
        claims.nbf = now + 600
        #expect(reason(auth, try await TestKeys.hs256(claims)) == "token not yet valid")
        claims.nbf = now + 10
        #expect(subject(auth, try await TestKeys.hs256(claims)) == "user-1")
        claims.nbf = nil
        claims.iat = now + 600
        #expect(reason(auth, try await TestKeys.hs256(claims)) == "token issued in the future")
        claims.iat = now + 10
        #expect(subject(auth, try await TestKeys.hs256(claims)) == "user-1")
    }

    @Test func issuerMustMatchWhenConfigured() async throws {
        let auth = try authenticator { $0.issuer = "https://id.example" }
        var claims = TestClaims.valid()
        #expect(reason(auth, try await TestKeys.hs256(claims)) == "token has the wrong issuer")
        claims.iss = "https://evil.example"
        #expect(reason(auth, try await TestKeys.hs256(claims)) == "token has the wrong issuer")
        claims.iss = "https://id.example"
        #expect(subject(auth, try await TestKeys.hs256(claims)) == "user-1")
        let unconfigured = try authenticator()
        claims.iss = "https://anyone.example"
        #expect(subject(unconfigured, try await TestKeys.hs256(claims)) == "user-1")
    }

    @Test func audienceMustContainTheConfiguredOne() async throws {
        let auth = try authenticator { $0.audience = "tabconfig" }
        var claims = TestClaims.valid()
        #expect(reason(auth, try await TestKeys.hs256(claims)) == "token is not meant for this audience")
        claims.aud = .one("other")
        #expect(reason(auth, try await TestKeys.hs256(claims)) == "token is not meant for this audience")
        claims.aud = .many(["other", "more"])
        #expect(reason(auth, try await TestKeys.hs256(claims)) == "token is not meant for this audience")
        claims.aud = .one("tabconfig")
        #expect(subject(auth, try await TestKeys.hs256(claims)) == "user-1")
        claims.aud = .many(["other", "tabconfig"])
        #expect(subject(auth, try await TestKeys.es256(claims, key: keys.ec, kid: TestKeys.ecID)) == "user-1")
    }

    @Test func subjectIsRequired() async throws {
        let auth = try authenticator()
        #expect(reason(auth, try await TestKeys.hs256(.valid(subject: nil))) == "token has no subject")
        #expect(reason(auth, try await TestKeys.hs256(.valid(subject: ""))) == "token has no subject")
    }

    // MARK: Cache

    @Test func repeatedTokenIsServedFromTheCacheUntilItExpires() async throws {
        let clock = TestClock()
        let auth = try authenticator(clock: clock) { $0.leeway = 0 }
        let claims = TestClaims(sub: "frank", exp: clock.now + 60)
        let token = try await TestKeys.rs256(claims, key: keys.rsa, kid: TestKeys.rsaID)
        #expect(subject(auth, token) == "frank")
        #expect(subject(auth, token) == "frank")
        #expect(subject(auth, token) == "frank")
        #expect(auth.signatureCheckCount == 1)
        #expect(auth.cachedTokenCount == 1)
        clock.advance(by: 61)
        #expect(reason(auth, token) == "token expired")
        #expect(auth.signatureCheckCount == 1)
        #expect(auth.cachedTokenCount == 0)
        #expect(reason(auth, token) == "token expired")
        #expect(auth.signatureCheckCount == 2)
    }

    @Test func refusedTokensAreNotCached() async throws {
        let auth = try authenticator()
        let token = try await TestKeys.hs256(.valid(), secret: TestKeys.otherSecret)
        #expect(reason(auth, token) == "invalid signature")
        #expect(reason(auth, token) == "invalid signature")
        #expect(auth.signatureCheckCount == 2)
        #expect(auth.cachedTokenCount == 0)
    }

    @Test func cacheStaysWithinItsCountAndByteBounds() {
        var cache = UserAuthenticator.TokenCache(capacity: 10, byteCapacity: 64 * 100)
        for index in 0..<25 {
            cache.insert("token-\(index)", .init(subject: "s\(index)", expiresAt: 1000), now: 0, leeway: 0)
            #expect(cache.count <= 10)
        }
        #expect(cache.lookup("token-24", now: 0, leeway: 0) == .hit("s24"))

        var small = UserAuthenticator.TokenCache(capacity: 1000, byteCapacity: 64 * 10)
        for index in 0..<100 {
            small.insert("t-\(String(format: "%07d", index))", .init(subject: "s", expiresAt: 1000), now: 0, leeway: 0)
        }
        #expect(small.count * 9 <= 64 * 10)
        small.insert(String(repeating: "x", count: 11), .init(subject: "s", expiresAt: 1000), now: 0, leeway: 0)
        #expect(small.lookup(String(repeating: "x", count: 11), now: 0, leeway: 0) == .miss)
    }

    @Test func fullCacheDropsExpiredEntriesFirst() {
        var cache = UserAuthenticator.TokenCache(capacity: 10, byteCapacity: 1 << 20)
        for index in 0..<9 {
            cache.insert("old-\(index)", .init(subject: "old", expiresAt: 100), now: 0, leeway: 0)
        }
        cache.insert("live", .init(subject: "live", expiresAt: 1000), now: 0, leeway: 0)
        cache.insert("new", .init(subject: "new", expiresAt: 1000), now: 500, leeway: 0)
        #expect(cache.count == 2)
        #expect(cache.lookup("live", now: 500, leeway: 0) == .hit("live"))
        #expect(cache.lookup("new", now: 500, leeway: 0) == .hit("new"))
        #expect(cache.lookup("new", now: 1001, leeway: 0) == .expired)
        #expect(cache.lookup("new", now: 1001, leeway: 0) == .miss)
    }

    // MARK: Concurrency

    @Test func verifiesFromManyThreadsAtOnce() async throws {
        let auth = try authenticator()
        var tokens: [(String, String)] = []
        for index in 0..<8 {
            let name = "user-\(index)"
            tokens.append((name, try await TestKeys.hs256(.valid(subject: name))))
            tokens.append((name, try await TestKeys.es256(.valid(subject: name), key: keys.ec, kid: TestKeys.ecID)))
        }
        let pairs = tokens
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<5 {
                for (name, token) in pairs where (try? auth.subject(authorization: "Bearer \(token)").get()) != name {
                    mismatches.withLock { $0 += 1 }
                }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
        #expect(auth.cachedTokenCount == pairs.count)
    }

    @Test func initDoesNotNeedAFreeConcurrencyThread() async throws {
        let jwks = try keys.writeStandardJWKS()
        defer { Self.removeDirectory(of: jwks) }
        var configuration = UserAuthConfiguration()
        configuration.hs256Secret = TestKeys.secret
        configuration.jwksFile = jwks
        let settings = configuration
        let count = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask { try UserAuthenticator(configuration: settings).keyIDs.count }
            }
            return try await group.reduce(0, +)
        }
        #expect(count == 32)
    }

    // MARK: Configuration

    @Test func unconfiguredAuthenticatorRefusesEverything() async throws {
        let auth = try UserAuthenticator(configuration: UserAuthConfiguration())
        #expect(!auth.configuration.isEnabled)
        let token = try await TestKeys.hs256(.valid())
        #expect(reason(auth, token) == "user authentication is not configured")
    }

    @Test func jwksFileThatIsNotJSONNamesTheFile() throws {
        let file = try TemporaryDirectory().url.appendingPathComponent("jwks.json")
        defer { Self.removeDirectory(of: file) }
        try Data("this is not json".utf8).write(to: file)
        let message = try configurationError { _ = try authenticator { $0.jwksFile = file } }
        #expect(message.contains(file.path))
        #expect(message.contains("not valid JSON"))
    }

    @Test func unreadableOrInvalidJWKSFilesAreConfigurationErrors() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/jwks.json")
        #expect(try configurationError { _ = try authenticator { $0.jwksFile = missing } }.contains(missing.path))

        let rsa = try TestKeys.jwk(rsa: keys.rsa, kid: TestKeys.rsaID)
        var noKid = rsa
        noKid["kid"] = nil
        var badModulus = rsa
        badModulus["n"] = "AQAB"
        var badPoint = try TestKeys.jwk(ec: keys.ec, kid: TestKeys.ecID)
        badPoint["x"] = badPoint["y"]
        let cases: [(Any, String)] = [
            (["keys": "none"], "is not a JSON Web Key Set"),
            (["other": 1], "is not a JSON Web Key Set"),
            (["keys": [noKid]], "key 0 has no kid"),
            (["keys": [rsa, rsa]], "more than one key has kid 'rsa-1'"),
            (["keys": [badModulus]], "key 0 ('rsa-1') is not a usable RSA public key"),
            (["keys": [badPoint]], "key 0 ('ec-1') is not a usable P-256 public key"),
            (["keys": [["kty": "oct", "k": "c2VjcmV0", "kid": "h"]]], "holds no RS256 or ES256 signing key"),
        ]
        for (json, expected) in cases {
            let file = try TemporaryDirectory().url.appendingPathComponent("jwks.json")
            defer { Self.removeDirectory(of: file) }
            try JSONSerialization.data(withJSONObject: json).write(to: file)
            let message = try configurationError { _ = try authenticator { $0.jwksFile = file } }
            #expect(message.contains(expected), "\(message)")
            #expect(message.contains(file.path))
        }
    }

    @Test func otherKindsOfKeysAreSkippedAndAlgIsInferred() async throws {
        let jwks = try TestKeys.writeJWKS([
            TestKeys.jwk(rsa: keys.rsa, kid: TestKeys.rsaID, alg: nil),
            TestKeys.jwk(ec: keys.ec, kid: TestKeys.ecID, alg: nil),
            TestKeys.jwk(rsa: keys.otherRSA, kid: "enc-1", alg: "RSA-OAEP").merging(["use": "enc"]) { $1 },
            TestKeys.jwk(rsa: keys.otherRSA, kid: "rs384", alg: "RS384"),
            ["kty": "oct", "k": "c2VjcmV0", "kid": "hmac"],
            ["kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "kid": "ed"],
            ["kty": "EC", "crv": "P-384", "x": "AA", "y": "AA", "kid": "p384"],
        ])
        defer { Self.removeDirectory(of: jwks) }
        var configuration = UserAuthConfiguration()
        configuration.jwksFile = jwks
        let auth = try UserAuthenticator(configuration: configuration)
        #expect(auth.keyIDs == [TestKeys.ecID, TestKeys.rsaID])
        #expect(auth.skippedKeyCount == 5)
        #expect(subject(auth, try await TestKeys.rs256(.valid(), key: keys.rsa, kid: TestKeys.rsaID)) == "user-1")
        #expect(subject(auth, try await TestKeys.es256(.valid(), key: keys.ec, kid: TestKeys.ecID)) == "user-1")
        #expect(reason(auth, try await TestKeys.rs256(.valid(), key: keys.otherRSA, kid: "enc-1")) == "unknown kid")
    }

    @Test func emptyShortSecretsAndNegativeLeewayAreConfigurationErrors() throws {
        #expect(try configurationError { _ = try authenticator { $0.hs256Secret = "" } }.contains("empty"))
        let short = try configurationError { _ = try authenticator { $0.hs256Secret = "short" } }
        #expect(short.contains("at least 32 bytes"))
        #expect(try configurationError { _ = try authenticator { $0.leeway = -1 } }.contains("leeway"))
        #expect(try configurationError { _ = try authenticator { $0.issuer = "" } }.contains("issuer"))
    }

    @Test func configurationReadsTheEnvironment() throws {
        let empty = try UserAuthConfiguration(environment: [:])
        #expect(empty == UserAuthConfiguration())
        #expect(!empty.isEnabled)
        let configuration = try UserAuthConfiguration(environment: [
            "TABCONFIG_JWT_HS256_SECRET": TestKeys.secret,
            "TABCONFIG_JWT_JWKS_FILE": "/etc/tabconfig/jwks.json",
            "TABCONFIG_JWT_ISSUER": "https://id.example",
            "TABCONFIG_JWT_AUDIENCE": "tabconfig",
            "TABCONFIG_JWT_LEEWAY": "5",
        ])
        #expect(configuration.isEnabled)
        #expect(configuration.hs256Secret == TestKeys.secret)
        #expect(configuration.jwksFile?.path == "/etc/tabconfig/jwks.json")
        #expect(configuration.issuer == "https://id.example")
        #expect(configuration.audience == "tabconfig")
        #expect(configuration.leeway == 5)
        #expect(throws: ConfigurationError.self) {
            try UserAuthConfiguration(environment: ["TABCONFIG_JWT_LEEWAY": "-3"])
        }
        #expect(try UserAuthConfiguration(environment: ["TABCONFIG_JWT_JWKS_FILE": "k.json"]).isEnabled)
    }
}

/// Claims whose `exp` is text rather than a NumericDate.
private struct TextExpiryClaims: JWTPayload {
    var sub: String
    var exp: String

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
