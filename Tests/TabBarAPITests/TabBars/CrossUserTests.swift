import Foundation
import JWTKit
import MicroHTTPTesting
import TabBarAPI
import Testing
import TestSupport

/// User A's token against user B on every user endpoint: zero successes, and B's data byte-identical afterwards.
@Suite("user authentication over HTTP")
struct CrossUserTests {
    static let secret = "cross-user-test-secret-0123456789abcdef"

    static func configure(_ configuration: inout ApplicationConfiguration) {
        configuration.userAuth.hs256Secret = secret
        configuration.userAuth.issuer = "https://auth.example.test"
        configuration.userAuth.audience = "tabconfig"
    }

    static func token(
        for user: String, issuer: String = "https://auth.example.test", audience: String = "tabconfig",
        expiresIn: TimeInterval = 600, secret: String = secret
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        let claims = CrossUserClaims(
            sub: SubjectClaim(value: user), exp: ExpirationClaim(value: Date().addingTimeInterval(expiresIn)),
            iss: IssuerClaim(value: issuer), aud: AudienceClaim(value: [audience]))
        return try await keys.sign(claims)
    }

    static func bearer(_ token: String) -> [(String, String)] {
        [("Authorization", "Bearer \(token)")]
    }

    @Test("a user's own token works, also through /users/me; no token is 401")
    func ownToken() async throws {
        let alice = try await Self.token(for: "alice")
        try TestApp.with(configure: Self.configure) { app in
            let saved = try app.request(
                "PUT", "/v1/clients/ios-phone/users/alice/tab-order", headers: Self.bearer(alice) + TestApp.json,
                body: Data("{\"order\":[\"search\"]}".utf8))
            #expect(saved.status == 200)
            let me = try app.request("GET", "/v1/clients/ios-phone/users/me/tab-order", headers: Self.bearer(alice))
            #expect(me.status == 200)
            #expect((try me.json() as? [String: Any])?["order"] as? [String] == ["search"])
            let meTabs = try app.request("GET", "/v1/clients/ios-phone/users/me/tabs", headers: Self.bearer(alice))
            #expect(meTabs.status == 200)
            let anonymous = try app.request("GET", "/v1/clients/ios-phone/users/alice/tab-order")
            #expect(anonymous.status == 401)
            #expect(anonymous.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
            #expect(try app.request("GET", "/v1/clients/ios-phone/tabs").status == 200)
        }
    }

    @Test("a token verified once answers from the request head the same as the usual way; others never do")
    func cachedTokenHeadAnswers() async throws {
        let alice = try await Self.token(for: "alice")
        let expired = try await Self.token(for: "alice", expiresIn: -3600)
        try TestApp.with(configure: Self.configure) { app in
            let saved = try app.request(
                "PUT", "/v1/clients/ios-phone/users/alice/tab-order", headers: Self.bearer(alice) + TestApp.json,
                body: Data("{\"order\":[\"search\",\"home\"]}".utf8))
            #expect(saved.status == 200)
            let cases: [(String, [(String, String)], Int)] = [
                ("/v1/clients/ios-phone/users/alice/tabs", Self.bearer(alice), 200),
                ("/v1/clients/ios-phone/users/me/tabs?locale=fr", Self.bearer(alice), 200),
                ("/v1/clients/ios-phone/users/bob/tabs", Self.bearer(alice), 403),
                ("/v1/clients/ios-phone/users/alice/tabs", Self.bearer(expired), 401),
                ("/v1/clients/ios-phone/users/alice/tabs", [("Authorization", "Basic YTpi")], 401),
                ("/v1/clients/ios-phone/users/alice/tabs", [], 401),
            ]
            for (target, headers, status) in cases {
                // The first request verifies (and caches) a good token; the second may then be answered from the
                // head; the third goes the usual way because it has a body. One request id: problems name it.
                let headers = headers + [("X-Request-Id", "same-\(status)")]
                let first = try app.request("GET", target, headers: headers)
                let second = try app.request("GET", target, headers: headers)
                let usual = try app.request("GET", target, headers: headers, body: Data("x".utf8))
                for response in [first, second, usual] {
                    #expect(response.status == status, "\(target) \(headers)")
                    #expect(response.body == first.body, "\(target) \(headers)")
                    #expect(response.headers["ETag"] == first.headers["ETag"], "\(target)")
                }
            }
            let tabs = try app.request("GET", "/v1/clients/ios-phone/users/alice/tabs", headers: Self.bearer(alice))
            #expect((try tabs.json() as? [String: Any]).flatMap { $0["customization"] as? [String: Any] }?["source"]
                as? String == "user")
        }
    }

    @Test("expired, wrong-key, wrong-issuer, wrong-audience, alg none and garbage tokens are 401")
    func badTokens() async throws {
        let expired = try await Self.token(for: "alice", expiresIn: -3600)
        let wrongKey = try await Self.token(for: "alice", secret: "another-secret-entirely-0123456789")
        let wrongIssuer = try await Self.token(for: "alice", issuer: "https://evil.example.test")
        let wrongAudience = try await Self.token(for: "alice", audience: "someone-else")
        let valid = try await Self.token(for: "alice")
        let parts = valid.split(separator: ".")
        let noneHeader = Data("{\"alg\":\"none\",\"typ\":\"JWT\"}".utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        let algNone = "\(noneHeader).\(parts[1])."
        try TestApp.with(configure: Self.configure) { app in
            for token in [expired, wrongKey, wrongIssuer, wrongAudience, algNone, "garbage", "a.b.c", ""] {
                let response = try app.request(
                    "GET", "/v1/clients/ios-phone/users/alice/tab-order", headers: Self.bearer(token))
                #expect(response.status == 401, "\(token.prefix(20))…")
                #expect(response.headers["Content-Type"] == "application/problem+json")
            }
            let basic = try app.request(
                "GET", "/v1/clients/ios-phone/users/alice/tab-order", headers: [("Authorization", "Basic YTpi")])
            #expect(basic.status == 401)
        }
    }

    @Test("user A's token against user B: zero successes on every user endpoint, B's data unchanged")
    func crossUserMatrix() async throws {
        let alice = try await Self.token(for: "alice")
        let bob = try await Self.token(for: "bob")
        try TestApp.with(configure: Self.configure) { app in
            let bobOrder = try app.request(
                "PUT", "/v1/clients/ios-phone/users/bob/tab-order", headers: Self.bearer(bob) + TestApp.json,
                body: Data("{\"order\":[\"profile\",\"home\"],\"hidden\":[\"settings\"]}".utf8))
            #expect(bobOrder.status == 200)
            let before = try app.request("GET", "/v1/clients/ios-phone/users/bob/tab-order", headers: Self.bearer(bob)).body
            let beforeTabs = try app.request("GET", "/v1/clients/ios-phone/users/bob/tabs", headers: Self.bearer(bob)).body

            let body = Data("{\"order\":[\"search\"]}".utf8)
            let attempts: [(String, String, Data?)] = [
                ("GET", "/v1/clients/ios-phone/users/bob/tabs", nil),
                ("GET", "/v1/clients/ios-phone/users/bob/tab-order", nil),
                ("PUT", "/v1/clients/ios-phone/users/bob/tab-order", body),
                ("DELETE", "/v1/clients/ios-phone/users/bob/tab-order", nil),
                ("GET", "/v1/clients/ios-phone/users/bob/dynamic-tabs", nil),
                ("POST", "/v1/clients/ios-phone/users/bob/dynamic-tabs", Data(#"{"template":"t","name":"n"}"#.utf8)),
                ("DELETE", "/v1/clients/ios-phone/users/bob/dynamic-tabs/n", nil),
            ]
            var successes = 0
            for (method, path, body) in attempts {
                for headers in [Self.bearer(alice) + TestApp.json, Self.bearer(alice) + TestApp.json + [("If-Match", "*")]] {
                    let response = try app.request(method, path, headers: headers, body: body)
                    #expect(response.status == 403, "\(method) \(path) → \(response.status)")
                    if (200..<300).contains(response.status) { successes += 1 }
                }
            }
            #expect(successes == 0)
            let adminWithUserToken = try app.request("GET", "/v1/clients", headers: Self.bearer(alice))
            #expect(adminWithUserToken.status == 401)

            let after = try app.request("GET", "/v1/clients/ios-phone/users/bob/tab-order", headers: Self.bearer(bob)).body
            let afterTabs = try app.request("GET", "/v1/clients/ios-phone/users/bob/tabs", headers: Self.bearer(bob)).body
            #expect(after == before)
            #expect(afterTabs == beforeTabs)
        }
    }

    @Test("without user auth the server refuses a non-loopback address unless anonymous users are allowed")
    func anonymousPolicy() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: ConfigurationError.self) {
            _ = try TestApp.start(dataDirectory: directory) { $0.host = "0.0.0.0" }
        }
        let app = try TestApp.start(dataDirectory: directory) {
            $0.host = "0.0.0.0"
            $0.allowAnonymousUsers = true
        }
        defer { app.application.shutdown() }
        #expect(try app.request("GET", "/v1/clients/ios-phone/users/anyone/tab-order").status == 200)
    }
}

/// The claims the test tokens carry.
struct CrossUserClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    var iss: IssuerClaim
    var aud: AudienceClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
