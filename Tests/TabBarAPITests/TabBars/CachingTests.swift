import Foundation
import MicroHTTPTesting
import Testing

/// What a cache between the service and an app may keep: every representation revalidates by default, a user's tags
/// are the user's alone, and a 304 says the 200's length.
@Suite("caching")
struct CachingTests {
    @Test("every GET revalidates at each use by default: the default tab bar public, the rest private")
    func revalidateByDefault() throws {
        try TestApp.with { app in
            _ = try app.saveOrder("ios-phone", "carol", order: ["search", "home"])
            #expect(try app.request("GET", "/v1/clients/ios-phone/tabs").headers["Cache-Control"] == "public, no-cache")
            for path in [
                "/v1/clients/ios-phone/users/carol/tabs", "/v1/clients/ios-phone/users/carol/tab-order",
            ] {
                #expect(try app.request("GET", path).headers["Cache-Control"] == "private, no-cache", "\(path)")
            }
            for path in ["/v1/clients/ios-phone/config", "/v1/clients/ios-phone/config/versions/1"] {
                let response = try app.request("GET", path, headers: TestApp.admin)
                #expect(response.status == 200)
                #expect(response.headers["Cache-Control"] == "private, no-cache", "\(path)")
            }
        }
    }

    @Test("an operator's max-age applies to the default tab bar only, with stale-while-revalidate when set")
    func operatorMaxAge() throws {
        try TestApp.with(configure: {
            $0.cacheMaxAge = 300
            $0.cacheStaleWhileRevalidate = 60
        }) { app in
            let shared = try app.request("GET", "/v1/clients/ios-phone/tabs?locale=en")
            #expect(shared.headers["Cache-Control"] == "public, max-age=300, stale-while-revalidate=60")
            let user = try app.request("GET", "/v1/clients/ios-phone/users/carol/tabs?locale=en")
            #expect(user.headers["Cache-Control"] == "private, no-cache")
        }
        try TestApp.with(configure: { $0.cacheMaxAge = 30 }) { app in
            let shared = try app.request("GET", "/v1/clients/ios-phone/tabs?locale=en")
            #expect(shared.headers["Cache-Control"] == "public, max-age=30")
        }
    }

    @Test("a 304 carries Content-Length 0 and no body, and the connection reads on correctly")
    func notModifiedLength() throws {
        try TestApp.with { app in
            _ = try app.saveOrder("ios-phone", "carol", order: ["search", "home"])
            let client = try TestClient(port: app.port)
            defer { client.close() }
            let resources: [(String, [(String, String)])] = [
                ("/v1/clients/ios-phone/tabs", []),
                ("/v1/clients/ios-phone/tabs?locale=fr", []),
                ("/v1/clients/ios-phone/users/carol/tabs", []),
                ("/v1/clients/ios-phone/users/dave/tabs?locale=en", []),
                ("/v1/clients/ios-phone/users/carol/tab-order", []),
                ("/v1/clients/ios-phone/config", TestApp.admin),
            ]
            for (path, headers) in resources {
                let full = try client.send("GET", path, headers: headers)
                #expect(full.status == 200)
                let tag = try #require(full.headers["ETag"])
                for method in ["GET", "HEAD"] {
                    let cached = try client.send(method, path, headers: headers + [("If-None-Match", tag)])
                    #expect(cached.status == 304, "\(method) \(path)")
                    // What libmicrohttpd writes on a kept-alive 304; the 200's length (RFC 9110 §8.6) makes OkHttp and
                    // wrk wait for a body (Benchmarks/results/reads/unknown-unknown-304-content-length.md).
                    #expect(cached.headers["Content-Length"] == "0", "\(method) \(path)")
                    #expect(cached.headers["ETag"] == tag)
                    #expect(cached.headers["Cache-Control"] == full.headers["Cache-Control"])
                }
            }
            let after = try client.send("GET", "/v1/clients/ios-phone/tabs?locale=en")
            #expect(after.status == 200)
            #expect(try after.json() is [String: Any])
        }
    }

    @Test("two users' tags differ even at the same revision, and one's tag never gets the other a 304")
    func tagsNameTheUser() throws {
        try TestApp.with { app in
            _ = try app.saveOrder("ios-phone", "carol", order: ["search", "home"])
            _ = try app.saveOrder("ios-phone", "dave", order: ["profile", "home"])
            let carol = try app.request("GET", "/v1/clients/ios-phone/users/carol/tabs?locale=en")
            let dave = try app.request("GET", "/v1/clients/ios-phone/users/dave/tabs?locale=en")
            let carolTag = try #require(carol.headers["ETag"])
            #expect(carolTag != dave.headers["ETag"])
            let daveWithCarolsTag = try app.request(
                "GET", "/v1/clients/ios-phone/users/dave/tabs?locale=en", headers: [("If-None-Match", carolTag)])
            #expect(daveWithCarolsTag.status == 200)
            #expect(daveWithCarolsTag.body == dave.body)

            let carolOrder = try app.request("GET", "/v1/clients/ios-phone/users/carol/tab-order")
            let daveOrder = try app.request(
                "GET", "/v1/clients/ios-phone/users/dave/tab-order",
                headers: [("If-None-Match", carolOrder.headers["ETag"] ?? "")])
            #expect(daveOrder.status == 200)
            #expect(daveOrder.headers["ETag"] != carolOrder.headers["ETag"])
        }
    }

    @Test("/users/me answers vary on Authorization; another user's token with the first one's tag gets a 200")
    func meVariesByAuthorization() async throws {
        let carol = try await CrossUserTests.token(for: "carol")
        let dave = try await CrossUserTests.token(for: "dave")
        try TestApp.with(configure: CrossUserTests.configure) { app in
            for (user, token, order) in [("carol", carol, ["search", "home"]), ("dave", dave, ["profile", "home"])] {
                let saved = try app.request(
                    "PUT", "/v1/clients/ios-phone/users/\(user)/tab-order",
                    headers: CrossUserTests.bearer(token) + TestApp.json,
                    body: try JSONSerialization.data(withJSONObject: ["order": order]))
                #expect(saved.status == 200)
            }
            for path in ["/v1/clients/ios-phone/users/me/tabs?locale=en", "/v1/clients/ios-phone/users/me/tab-order"] {
                // Twice: the first verifies the token, the second is answered from the request head with it cached.
                for _ in 0..<2 {
                    let carols = try app.request("GET", path, headers: CrossUserTests.bearer(carol))
                    #expect(carols.status == 200)
                    #expect(carols.headers["Vary"]?.contains("Authorization") == true, "\(path)")
                    let tag = try #require(carols.headers["ETag"])
                    let again = try app.request(
                        "GET", path, headers: CrossUserTests.bearer(carol) + [("If-None-Match", tag)])
                    #expect(again.status == 304)
                    let daves = try app.request(
                        "GET", path, headers: CrossUserTests.bearer(dave) + [("If-None-Match", tag)])
                    #expect(daves.status == 200, "\(path)")
                    #expect(daves.body != carols.body)
                }
            }
            let named = try app.request("GET", "/v1/clients/ios-phone/users/carol/tabs", headers: CrossUserTests.bearer(carol))
            #expect(named.headers["Vary"] == "Accept-Language")
        }
    }

    @Test("a version event's etag is the default tab bar's tag in the event's locale")
    func eventTagRevalidates() throws {
        try TestApp.with { app in
            let events = try EventReader(port: app.port, path: "/v1/clients/ios-phone/tabs/events")
            defer { events.close() }
            let first = try Self.eventData(try events.next())
            let live = try app.request("GET", "/v1/clients/ios-phone/tabs")
            #expect(first["etag"] as? String == live.headers["ETag"])
            let tag = try #require(first["etag"] as? String)
            let locale = try #require(first["locale"] as? String)
            let cached = try app.request("GET", "/v1/clients/ios-phone/tabs?locale=\(locale)", headers: [("If-None-Match", tag)])
            #expect(cached.status == 304)

            try app.publish("ios-phone", Fixtures.designExample)
            let second = try Self.eventData(try events.next(skippingHeartbeats: true))
            #expect(second["version"] as? Int == 2)
            let stale = try app.request("GET", "/v1/clients/ios-phone/tabs", headers: [("If-None-Match", tag)])
            #expect(stale.status == 200)
            #expect(stale.headers["ETag"] == second["etag"] as? String)
        }
    }

    /// The JSON of an event block's `data:` line.
    private static func eventData(_ event: String) throws -> [String: Any] {
        let line = try #require(event.split(separator: "\n").first { $0.hasPrefix("data: ") })
        return try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any])
    }
}
