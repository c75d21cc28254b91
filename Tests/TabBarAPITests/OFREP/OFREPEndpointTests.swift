import Foundation
import MicroHTTPTesting
import TabBarAPI
import TabBarModel
import Testing

/// OpenFeature remote evaluation over HTTP: the flags read off the tab bar the GETs answer, OFREP's error shapes and
/// codes, the bulk ETag and 304, user authentication, and hostile bodies.
@Suite("OFREP endpoints")
struct OFREPEndpointTests {
    /// home, shop (5.2.0 and later), profile (hideable), an experiment on `deviceId` whose variation 1 opens on
    /// profile.
    static var shopConfig: [String: Any] {
        typealias Tabs = TargetingEndpointTests
        return [
            "tabs": [
                Tabs.tab("home"), Tabs.tab("shop", ["when": ["appVersion": ["$vgte": "5.2.0"]]]),
                Tabs.tab("profile", ["hideable": true]),
            ],
            "experiments": [
                [
                    "key": "layout", "hashAttribute": "deviceId", "weights": [0.5, 0.5],
                    "variations": [[:], ["initialTab": "profile"]],
                ]
            ],
        ]
    }

    static func bulk(_ app: TestApp, _ context: [String: Any], headers: [(String, String)] = []) throws -> TestResponse {
        try evaluate(app, nil, context, headers: headers)
    }

    static func evaluate(
        _ app: TestApp, _ key: String?, _ context: [String: Any], headers: [(String, String)] = []
    ) throws -> TestResponse {
        try app.request("POST", "/ofrep/v1/evaluate/flags" + (key.map { "/\($0)" } ?? ""), headers: headers, json: ["context": context])
    }

    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(try response.json() as? [String: Any], "\(response.status) \(response.text)")
    }

    /// The bulk answer's flags by key.
    static func flags(_ response: TestResponse) throws -> [String: [String: Any]] {
        let flags = try #require(try object(response)["flags"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: flags.map { ($0["key"] as? String ?? "", $0) })
    }

    @Test("bulk: tabs is the user tab-bar GET's body, tab.<id>, initialTab and the experiment read off it")
    func bulkMatchesGet() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            #expect(try app.saveOrder("shop-app", "alice", order: ["profile", "home"], hidden: []).status == 200)
            for device in ["d1", "d2", "d3", "d4"] {
                let get = try app.request(
                    "GET", "/v1/clients/shop-app/users/alice/tabs?platform=ios&appVersion=5.2.0&deviceId=\(device)")
                let bulk = try Self.bulk(
                    app,
                    ["client": "shop-app", "targetingKey": "alice", "platform": "ios", "appVersion": "5.2.0",
                     "deviceId": device])
                #expect(bulk.status == 200)
                let flags = try Self.flags(bulk)
                let tabs = try #require(flags["tabs"]?["value"] as? [String: Any])
                let expected = try Self.object(get)
                #expect(NSDictionary(dictionary: tabs) == NSDictionary(dictionary: expected))
                #expect(bulk.text.contains(get.text), "the body is embedded byte for byte")
                #expect(flags["tabs"]?["variant"] as? String == get.headers["ETag"].map { String($0.dropFirst().dropLast()) })
                let bar = try JSONDecoder().decode(ResolvedTabBar.self, from: get.body)
                let experiment = try #require(bar.experiment)
                #expect(flags["experiment.layout"]?["value"] as? String == String(experiment.variation))
                #expect(flags["experiment.layout"]?["reason"] as? String == "SPLIT")
                #expect(flags["initialTab"]?["value"] as? String == bar.initialTab)
                #expect(flags["tab.shop"]?["value"] as? Bool == true)
                #expect(flags["tab.shop"]?["reason"] as? String == "TARGETING_MATCH")
                #expect(flags["tab.home"]?["reason"] as? String == "STATIC")
                #expect(flags["tab.home"]?["variant"] as? String == "on")
                #expect(flags.values.allSatisfy { ($0["metadata"] as? [String: Any])?["version"] as? Int == 1 })
            }
        }
    }

    @Test("single: tab.shop true for 5.2.0, false for 5.1.9 and for a build whose manifest lacks it")
    func targetingAndManifest() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            let new = try Self.evaluate(app, "tab.shop", ["client": "shop-app", "platform": "ios", "appVersion": "5.2.0"])
            #expect(try Self.object(new)["value"] as? Bool == true)
            #expect(try Self.object(new)["key"] as? String == "tab.shop")
            let old = try Self.evaluate(app, "tab.shop", ["client": "shop-app", "platform": "ios", "appVersion": "5.1.9"])
            #expect(try Self.object(old)["value"] as? Bool == false)
            #expect(try Self.object(old)["variant"] as? String == "off")
            #expect(try Self.object(old)["reason"] as? String == "TARGETING_MATCH")

            let manifest = try app.request(
                "PUT", "/v1/clients/shop-app/builds/ios/5.3.0", headers: TestApp.admin,
                json: ["viewControllers": ["HomeViewController", "ProfileViewController"]])
            #expect(manifest.status == 201)
            let lacking = try Self.evaluate(app, "tab.shop", ["client": "shop-app", "platform": "ios", "appVersion": "5.3.0"])
            #expect(try Self.object(lacking)["value"] as? Bool == false)
            #expect(try Self.object(lacking)["reason"] as? String == "TARGETING_MATCH")
            let home = try Self.evaluate(app, "tab.home", ["client": "shop-app", "platform": "ios", "appVersion": "5.3.0"])
            #expect(try Self.object(home)["value"] as? Bool == true)

            let none = try Self.evaluate(app, "experiment.layout", ["client": "shop-app"])
            #expect(try Self.object(none)["value"] as? String == "none")
            #expect(try Self.object(none)["reason"] as? String == "TARGETING_MATCH")
            let tabs = try Self.evaluate(app, "tabs", ["client": "shop-app", "locale": "en"])
            let get = try app.request("GET", "/v1/clients/shop-app/tabs?locale=en")
            #expect(tabs.text.contains(get.text))
        }
    }

    @Test("bulk: a strong ETag naming the outcome, 304 to If-None-Match, another tag for another outcome")
    func bulkETag() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            let context: [String: Any] = ["client": "shop-app", "appVersion": "5.2.0", "locale": "en"]
            let first = try Self.bulk(app, context)
            let etag = try #require(first.headers["ETag"])
            #expect(!etag.hasPrefix("W/"))
            let again = try Self.bulk(app, context, headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.headers["ETag"] == etag)
            var sameOutcome = context
            sameOutcome["appVersion"] = "6.0.0"
            #expect(try Self.bulk(app, sameOutcome, headers: [("If-None-Match", etag)]).status == 304)
            var other = context
            other["appVersion"] = "5.1.9"
            let changed = try Self.bulk(app, other, headers: [("If-None-Match", etag)])
            #expect(changed.status == 200)
            #expect(changed.headers["ETag"] != etag)
        }
    }

    @Test("bulk: If-None-Match: * is a 412 (RFC 9110 §13.1.2: not GET or HEAD), a tag it names still a 304")
    func ifNoneMatchStar() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            let context: [String: Any] = ["client": "shop-app", "locale": "en"]
            let etag = try #require(try Self.bulk(app, context).headers["ETag"])
            for header in ["*", "\"x\", *", " * "] {
                let star = try Self.bulk(app, context, headers: [("If-None-Match", header)])
                #expect(star.status == 412, "\(header)")
                #expect(star.headers["Content-Type"] == "application/problem+json")
            }
            #expect(try Self.bulk(app, context, headers: [("If-None-Match", etag)]).status == 304)
        }
    }

    @Test("a build whose manifest lacks nothing: its own tag, so the tabs flag's reason is the single flag's, in either order")
    func buildLackingNothing() throws {
        for buildFirst in [false, true] {
            try TestApp.with { app in
                try app.publish(
                    "plain", ["tabs": [TargetingEndpointTests.tab("home"), TargetingEndpointTests.tab("profile")]])
                let manifest = try app.request(
                    "PUT", "/v1/clients/plain/builds/ios/5.0.0", headers: TestApp.admin,
                    json: ["viewControllers": ["HomeViewController", "ProfileViewController"]])
                #expect(manifest.status == 201)
                let plain: [String: Any] = ["client": "plain", "locale": "en"]
                var build = plain
                build["platform"] = "ios"
                build["appVersion"] = "5.0.0"
                var bulks: [String: TestResponse] = [:]
                for (name, context) in buildFirst ? [("build", build), ("plain", plain)] : [("plain", plain), ("build", build)] {
                    bulks[name] = try Self.bulk(app, context)
                }
                let (withBuild, without) = (try #require(bulks["build"]), try #require(bulks["plain"]))
                #expect(withBuild.headers["ETag"] != without.headers["ETag"])
                #expect(try Self.flags(without)["tabs"]?["reason"] as? String == "STATIC")
                #expect(try Self.flags(withBuild)["tabs"]?["reason"] as? String == "TARGETING_MATCH")
                for (context, response) in [(plain, without), (build, withBuild)] {
                    let single = try Self.object(try Self.evaluate(app, "tabs", context))
                    #expect(single["reason"] as? String == (try Self.flags(response)["tabs"]?["reason"] as? String))
                }
                let revalidated = try Self.bulk(
                    app, build, headers: [("If-None-Match", try #require(without.headers["ETag"]))])
                #expect(revalidated.status == 200, "the tag without the build does not stand for the build's answer")
            }
        }
    }

    @Test("bulk answers kept per tag: the same context twice answers the same bytes; a save, a manifest, a publish change them")
    func bulkAnswersFollowChanges() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            let context: [String: Any] = [
                "client": "shop-app", "targetingKey": "alice", "platform": "ios", "appVersion": "5.3.0", "deviceId": "d1",
            ]
            let getPath = "/v1/clients/shop-app/users/alice/tabs?platform=ios&appVersion=5.3.0&deviceId=d1"
            let first = try Self.bulk(app, context)
            #expect(try Self.bulk(app, context).body == first.body)
            #expect(try Self.flags(first)["tab.shop"]?["value"] as? Bool == true)

            #expect(try app.saveOrder("shop-app", "alice", order: ["profile", "home"], hidden: []).status == 200)
            let saved = try Self.bulk(app, context)
            #expect(saved.headers["ETag"] != first.headers["ETag"])
            #expect(saved.text.contains(try app.request("GET", getPath).text), "the saved order, not the kept answer")
            #expect(try Self.bulk(app, context, headers: [("If-None-Match", try #require(first.headers["ETag"]))]).status == 200)

            let manifest = try app.request(
                "PUT", "/v1/clients/shop-app/builds/ios/5.3.0", headers: TestApp.admin,
                json: ["viewControllers": ["HomeViewController", "ProfileViewController"]])
            #expect(manifest.status == 201)
            let lacking = try Self.bulk(app, context)
            #expect(try Self.flags(lacking)["tab.shop"]?["value"] as? Bool == false)
            #expect(try Self.flags(lacking)["tab.shop"]?["reason"] as? String == "TARGETING_MATCH")
            #expect(lacking.text.contains(try app.request("GET", getPath).text))

            var republished = Self.shopConfig
            republished["experiments"] = nil
            try app.publish("shop-app", republished)
            let published = try Self.flags(try Self.bulk(app, context))
            #expect(published["experiment.layout"] == nil)
            #expect(published.values.allSatisfy { ($0["metadata"] as? [String: Any])?["version"] as? Int == 2 })
        }
    }

    @Test("errors in OFREP's shapes: FLAG_NOT_FOUND, INVALID_CONTEXT, PARSE_ERROR")
    func errors() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            func expect(_ response: TestResponse, _ status: Int, _ code: String, key: String?, mentioning: String? = nil) throws {
                #expect(response.status == status, "\(response.text)")
                #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
                let body = try Self.object(response)
                #expect(body["errorCode"] as? String == code)
                #expect(body["key"] as? String == key)
                if let mentioning { #expect((body["errorDetails"] as? String)?.contains(mentioning) == true, "\(body)") }
            }
            try expect(Self.evaluate(app, "tab.nope", ["client": "shop-app"]), 404, "FLAG_NOT_FOUND", key: "tab.nope")
            try expect(Self.evaluate(app, "banner", ["client": "shop-app"]), 404, "FLAG_NOT_FOUND", key: "banner")
            try expect(Self.evaluate(app, "tabs", ["client": "no-such"]), 404, "FLAG_NOT_FOUND", key: "tabs")
            try expect(Self.bulk(app, ["client": "no-such"]), 400, "INVALID_CONTEXT", key: nil, mentioning: "no-such")
            try expect(Self.bulk(app, ["platform": "ios"]), 400, "INVALID_CONTEXT", key: nil, mentioning: "client")
            try expect(
                Self.evaluate(app, "tabs", ["client": "shop-app", "appVersion": "five"]), 400, "INVALID_CONTEXT",
                key: "tabs", mentioning: "appVersion")
            try expect(
                Self.bulk(app, ["client": "shop-app", "platform": 7]), 400, "INVALID_CONTEXT", key: nil,
                mentioning: "platform")
            try expect(
                Self.bulk(app, ["client": "shop-app", "attr.tier": ["gold"]]), 400, "INVALID_CONTEXT", key: nil,
                mentioning: "attr.tier")
            try expect(
                Self.bulk(app, ["client": "shop-app", "targetingKey": "not a user"]), 400, "INVALID_CONTEXT",
                key: nil, mentioning: "targetingKey")
            let notJSON = try app.request(
                "POST", "/ofrep/v1/evaluate/flags/tabs", headers: TestApp.json, body: Data("{context:".utf8))
            try expect(notJSON, 400, "PARSE_ERROR", key: "tabs")
            let empty = try app.request("POST", "/ofrep/v1/evaluate/flags", headers: TestApp.json, body: Data())
            try expect(empty, 400, "PARSE_ERROR", key: nil)
            let noContext = try app.request("POST", "/ofrep/v1/evaluate/flags", json: ["ctx": [:] as [String: Any]])
            try expect(noContext, 400, "INVALID_CONTEXT", key: nil)
            for name in ["client", "targetingKey", "locale"] {
                let twice = #"{"context":{"client":"shop-app","targetingKey":"ann","locale":"en","\#(name)":"x"}}"#
                let response = try app.request(
                    "POST", "/ofrep/v1/evaluate/flags", headers: TestApp.json, body: Data(twice.utf8))
                try expect(response, 400, "INVALID_CONTEXT", key: nil, mentioning: "'\(name)' is given more than once")
            }
            let twice = #"{"context":{"client":"shop-app"},"context":{"client":"other"}}"#
            let contextTwice = try app.request(
                "POST", "/ofrep/v1/evaluate/flags", headers: TestApp.json, body: Data(twice.utf8))
            try expect(contextTwice, 400, "INVALID_CONTEXT", key: nil, mentioning: "'context' is given more than once")
        }
    }

    @Test("hostile bodies: 400 INVALID_CONTEXT or 413, never a 5xx")
    func hostile() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            var many: [String: Any] = ["client": "shop-app"]
            for index in 0..<10_000 { many["a\(index)"] = "v" }
            let tooMany = try Self.bulk(app, many)
            #expect(tooMany.status == 400)
            #expect(try Self.object(tooMany)["errorCode"] as? String == "INVALID_CONTEXT")
            var attributes: [String: Any] = ["client": "shop-app"]
            for index in 0..<17 { attributes["attr.a\(index)"] = "v" }
            #expect(try Self.bulk(app, attributes).status == 400)
            let long = try Self.bulk(app, ["client": "shop-app", "attr.tier": String(repeating: "x", count: 257)])
            #expect(long.status == 400)

            let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
            let nested = try app.request(
                "POST", "/ofrep/v1/evaluate/flags", headers: TestApp.json,
                body: Data("{\"context\":{\"client\":\"shop-app\",\"x\":\(deep)}}".utf8))
            #expect(nested.status == 400)
            #expect(try Self.object(nested)["errorCode"] as? String == "INVALID_CONTEXT")

            let huge = try app.request(
                "POST", "/ofrep/v1/evaluate/flags", headers: TestApp.json,
                body: Data("{\"context\":{\"client\":\"shop-app\",\"x\":\"\(String(repeating: "y", count: 2 << 20))\"}}".utf8))
            #expect(huge.status == 413)
            let ignored = try Self.bulk(app, ["client": "shop-app", "plan": ["nested": [1, 2]], "email": "a@b.c"])
            #expect(ignored.status == 200, "members the context does not use are ignored")
        }
    }

    @Test("user authentication: 401 without a token, 403 for another user, TARGETING_KEY_MISSING without a user")
    func authentication() async throws {
        let alice = try await CrossUserTests.token(for: "alice")
        try TestApp.with(configure: CrossUserTests.configure) { app in
            let context: [String: Any] = ["client": "ios-phone", "targetingKey": "alice"]
            #expect(try Self.bulk(app, context).status == 401)
            #expect(try Self.bulk(app, context, headers: CrossUserTests.bearer(alice)).status == 200)
            var bob = context
            bob["targetingKey"] = "bob"
            #expect(try Self.evaluate(app, "tabs", bob, headers: CrossUserTests.bearer(alice)).status == 403)
            let missing = try Self.bulk(app, ["client": "ios-phone"], headers: CrossUserTests.bearer(alice))
            #expect(missing.status == 400)
            #expect(try Self.object(missing)["errorCode"] as? String == "TARGETING_KEY_MISSING")
            #expect(try Self.bulk(app, ["client": "ios-phone"]).status == 401)
        }
    }
}
