import Foundation
import MicroHTTPTesting
import TabBarModel
import TestSupport
import Testing

/// Targeting through HTTP: the context parameters of both tab-bar GETs, what each build gets, rollouts across a
/// restart, experiments in the answer, outcome ETags, Cache-Control bounded by windows, explain.
@Suite("targeting over HTTP")
struct TargetingEndpointTests {
    static func tab(_ id: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        var tab: [String: Any] = [
            "id": id, "title": ["default": id.capitalized],
            "destination": ["type": "viewController", "name": "\(id.capitalized)ViewController"],
        ]
        tab.merge(extra) { $1 }
        return tab
    }

    /// home, search, shop (iOS 5.2.0 and later), profile.
    static var shopConfig: [String: Any] {
        [
            "tabs": [
                tab("home"), tab("search"),
                tab("shop", ["when": ["appVersion": ["$vgte": "5.2.0"], "platform": ["$in": ["ios", "ipados"]]]]),
                tab("profile"),
            ]
        ]
    }

    static func ids(_ response: TestResponse) throws -> [String] {
        let bar = try JSONDecoder().decode(ResolvedTabBar.self, from: response.body)
        return bar.tabs.map(\.id)
    }

    @Test("each build gets the tabs it can open; both GETs read the context")
    func buildsGetTheirTabs() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            let old = try app.request("GET", "/v1/clients/shop-app/tabs?platform=ios&appVersion=5.1.9")
            #expect(try Self.ids(old) == ["home", "search", "profile"])
            let new = try app.request("GET", "/v1/clients/shop-app/tabs?platform=ios&appVersion=5.2.0")
            #expect(try Self.ids(new) == ["home", "search", "shop", "profile"])
            let android = try app.request("GET", "/v1/clients/shop-app/tabs?platform=android&appVersion=6.0")
            #expect(try Self.ids(android) == ["home", "search", "profile"])
            #expect(try Self.ids(try app.request("GET", "/v1/clients/shop-app/tabs")) == ["home", "search", "profile"])
            let user = try app.userTabs("shop-app", "ann", query: "?platform=ipados&appVersion=5.3")
            #expect(user.tabs.map(\.id) == ["home", "search", "shop", "profile"])
        }
    }

    @Test("the ETag names the outcome: builds that see the same bar share it, and revalidate with a 304")
    func outcomeETags() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            let path = "/v1/clients/shop-app/tabs"
            let old = try app.request("GET", path + "?platform=ios&appVersion=5.1.9")
            let android = try app.request("GET", path + "?platform=android&appVersion=7.0&country=DE")
            let new = try app.request("GET", path + "?platform=ios&appVersion=5.2.0")
            let etag = try #require(old.headers["ETag"])
            #expect(android.headers["ETag"] == etag)
            #expect(android.body == old.body)
            #expect(new.headers["ETag"] != etag)
            let revalidated = try app.request(
                "GET", path + "?platform=android&appVersion=6.0", headers: [("If-None-Match", etag)])
            #expect(revalidated.status == 304)
            let changed = try app.request("GET", path + "?platform=ios&appVersion=5.2.1", headers: [("If-None-Match", etag)])
            #expect(changed.status == 200)
            let userOld = try app.request("GET", "/v1/clients/shop-app/users/ann/tabs?platform=ios&appVersion=5.1.9")
            let userNew = try app.request("GET", "/v1/clients/shop-app/users/ann/tabs?platform=ios&appVersion=5.2.0")
            #expect(userOld.headers["ETag"] != userNew.headers["ETag"])
            let userRevalidated = try app.request(
                "GET", "/v1/clients/shop-app/users/ann/tabs?platform=android",
                headers: [("If-None-Match", try #require(userOld.headers["ETag"]))])
            #expect(userRevalidated.status == 304)
        }
    }

    @Test("a malformed context parameter is a 400 naming it, on both GETs, for a known or unknown client")
    func malformedContext() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            for target in [
                "/v1/clients/shop-app/tabs?appVersion=five", "/v1/clients/shop-app/users/ann/tabs?appVersion=five",
                "/v1/clients/nobody/tabs?appVersion=five",
            ] {
                let response = try app.request("GET", target)
                #expect(response.status == 400, "\(target)")
                let problem = try #require(try response.json() as? [String: Any])
                let errors = try #require(problem["errors"] as? [[String: String]])
                #expect(errors.first?["parameter"] == "appVersion")
            }
            for (query, parameter) in [
                ("country=France", "country"), ("platform=a%20b", "platform"), ("attr.9=x", "attr.9"),
                ("attr.tier=%FF%FE", "attr.tier"), ("deviceId=%00", "deviceId"), ("osVersion=1&osVersion=2", "osVersion"),
                ("attr.tier=" + String(repeating: "x", count: 300), "attr.tier"),
            ] {
                let response = try app.request("GET", "/v1/clients/shop-app/tabs?" + query)
                #expect(response.status == 400, "\(query)")
                let errors = (try response.json() as? [String: Any])?["errors"] as? [[String: String]]
                #expect(errors?.first?["parameter"] == parameter, "\(query)")
            }
        }
    }

    @Test("a 30 % rollout gives each user the same answer after a restart; the shares are in the model tests")
    func rolloutAcrossRestart() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let config: [String: Any] = [
            "tabs": [Self.tab("home"), Self.tab("rewards", ["rollout": ["coverage": 0.3, "seed": "rewards-1"]])]
        ]
        let users = (0..<300).map { "user-\($0)" }
        let before: [Bool] = try TestApp.with(dataDirectory: directory) { app in
            try app.publish("shop-app", config)
            return try users.map { try app.userTabs("shop-app", $0).tabs.contains { $0.id == "rewards" } }
        }
        let after: [Bool] = try TestApp.with(dataDirectory: directory) { app in
            try users.map { try app.userTabs("shop-app", $0).tabs.contains { $0.id == "rewards" } }
        }
        #expect(before == after)
        let holders = before.filter { $0 }.count
        #expect(holders > 0 && holders < users.count, "\(holders) of \(users.count)")
    }

    @Test("the answer names the experiment and variation; the variation's order applies")
    func experimentInAnswer() throws {
        try TestApp.with { app in
            try app.publish(
                "shop-app",
                [
                    "tabs": [Self.tab("home"), Self.tab("search"), Self.tab("shop"), Self.tab("profile")],
                    "experiments": [
                        [
                            "key": "bar-order", "hashAttribute": "deviceId", "weights": [0.5, 0.5],
                            "variations": [[:], ["order": ["shop", "home"], "maxVisibleTabs": 3]],
                        ]
                    ],
                ])
            var seen: [Int: [String]] = [:]
            for device in 0..<40 {
                let response = try app.request("GET", "/v1/clients/shop-app/tabs?deviceId=device-\(device)")
                let bar = try JSONDecoder().decode(ResolvedTabBar.self, from: response.body)
                let experiment = try #require(bar.experiment)
                #expect(experiment.key == "bar-order")
                seen[experiment.variation] = bar.tabs.map(\.id)
                let again = try app.request("GET", "/v1/clients/shop-app/tabs?deviceId=device-\(device)")
                #expect(again.body == response.body)
            }
            #expect(seen[0] == ["home", "search", "shop", "profile"])
            #expect(seen[1] == ["shop", "home", "search", "profile"])
            let none = try app.request("GET", "/v1/clients/shop-app/tabs")
            #expect(try JSONDecoder().decode(ResolvedTabBar.self, from: none.body).experiment == nil)
            #expect(!none.text.contains("experiment"))
        }
    }

    @Test("a saved order from a build with shop: no shop and nothing dropped on a build without, back in place after")
    func savedOrderAcrossBuilds() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            let saved = try app.saveOrder("shop-app", "ann", order: ["shop", "profile", "home", "search"])
            #expect(saved.status == 200)
            let old = try app.userTabs("shop-app", "ann", query: "?platform=ios&appVersion=5.1.9")
            #expect(old.tabs.map(\.id) == ["profile", "home", "search"])
            #expect(old.customization?.dropped == [])
            #expect(old.customization?.added == [])
            let stored = try app.request("GET", "/v1/clients/shop-app/users/ann/tab-order")
            #expect((try stored.json() as? [String: Any])?["order"] as? [String] == ["shop", "profile", "home", "search"])
            let new = try app.userTabs("shop-app", "ann", query: "?platform=ios&appVersion=5.2.0")
            #expect(new.tabs.map(\.id) == ["shop", "profile", "home", "search"])
        }
    }

    @Test("an order written from a build without shop, with its context, keeps shop's stored place")
    func writeFromOldBuild() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            _ = try app.saveOrder("shop-app", "ann", order: ["shop", "profile", "home", "search"])
            let written = try app.request(
                "PUT", "/v1/clients/shop-app/users/ann/tab-order?platform=ios&appVersion=5.1.9",
                json: ["order": ["search", "profile", "home"], "hidden": [String]()])
            #expect(written.status == 200)
            #expect((try written.json() as? [String: Any])?["order"] as? [String] == ["shop", "search", "profile", "home"])
            let old = try app.userTabs("shop-app", "ann", query: "?platform=ios&appVersion=5.1.9")
            #expect(old.tabs.map(\.id) == ["search", "profile", "home"])
            let new = try app.userTabs("shop-app", "ann", query: "?platform=ios&appVersion=5.2.0")
            #expect(new.tabs.map(\.id) == ["shop", "search", "profile", "home"])
            let malformed = try app.request(
                "PUT", "/v1/clients/shop-app/users/ann/tab-order?appVersion=x", json: ["order": ["home"]])
            #expect(malformed.status == 400)
        }
    }

    @Test("Cache-Control max-age never outlives the next startsAt or endsAt")
    func cacheControlBounded() throws {
        let soon = Date().addingTimeInterval(120)
        let later = Date().addingTimeInterval(86_400 * 30)
        try TestApp.with(configure: { $0.cacheMaxAge = 3600; $0.cacheStaleWhileRevalidate = 60 }) { app in
            try app.publish(
                "sale-app",
                [
                    "tabs": [
                        Self.tab("home"),
                        Self.tab("sale", ["endsAt": CanonicalJSON.timestamp(soon)]),
                    ]
                ])
            let response = try app.request("GET", "/v1/clients/sale-app/tabs")
            #expect(try Self.ids(response) == ["home", "sale"])
            let cacheControl = try #require(response.headers["Cache-Control"])
            let maxAge = try #require(Int(cacheControl.split(separator: "=")[1].prefix { $0.isNumber }))
            #expect(maxAge <= 120 && maxAge >= 100, "\(cacheControl)")
            #expect(!cacheControl.contains("stale-while-revalidate"))
            let notModified = try app.request(
                "GET", "/v1/clients/sale-app/tabs", headers: [("If-None-Match", try #require(response.headers["ETag"]))])
            #expect(notModified.status == 304)
            #expect(notModified.headers["Cache-Control"]?.hasPrefix("public, max-age=1") == true)

            try app.publish(
                "later-app",
                ["tabs": [Self.tab("home"), Self.tab("sale", ["startsAt": CanonicalJSON.timestamp(later)])]])
            let far = try app.request("GET", "/v1/clients/later-app/tabs")
            #expect(try Self.ids(far) == ["home"])
            #expect(far.headers["Cache-Control"] == "public, max-age=3600, stale-while-revalidate=60")
        }
    }

    @Test("the trusted country header wins over ?country= and is named in Vary")
    func trustedCountryHeader() throws {
        try TestApp.with(configure: { $0.countryHeader = "CF-IPCountry" }) { app in
            try app.publish("shop-app", ["tabs": [Self.tab("home"), Self.tab("news", ["when": ["country": "FR"]])]])
            let spoofed = try app.request(
                "GET", "/v1/clients/shop-app/tabs?country=FR", headers: [("CF-IPCountry", "DE")])
            #expect(try Self.ids(spoofed) == ["home"])
            #expect(spoofed.headers["Vary"] == "Accept-Language, CF-IPCountry")
            let french = try app.request("GET", "/v1/clients/shop-app/tabs", headers: [("CF-IPCountry", "fr")])
            #expect(try Self.ids(french) == ["home", "news"])
            let fromQuery = try app.request("GET", "/v1/clients/shop-app/tabs?country=FR")
            #expect(try Self.ids(fromQuery) == ["home", "news"])
        }
    }

    @Test("explain: admin only; says why a tab is absent with the failing condition's pointer; merges a user's order")
    func explain() throws {
        try TestApp.with { app in
            try app.publish("shop-app", Self.shopConfig)
            let path = "/v1/clients/shop-app/tabs/explain?platform=ios&appVersion=5.1.9"
            #expect(try app.request("GET", path).status == 401)
            let response = try app.request("GET", path, headers: TestApp.admin)
            #expect(response.status == 200)
            let body = try #require(try response.json() as? [String: Any])
            let tabs = try #require(body["tabs"] as? [[String: Any]])
            let shop = try #require(tabs.first { $0["id"] as? String == "shop" })
            #expect(shop["present"] as? Bool == false)
            let reason = try #require(shop["reason"] as? [String: String])
            #expect(reason["pointer"] == "/tabs/2/when/appVersion/$vgte")
            #expect(reason["message"] == #"appVersion is "5.1.9""#)
            #expect((body["context"] as? [String: Any])?["appVersion"] as? String == "5.1.9")
            #expect(((body["tabBar"] as? [String: Any])?["tabs"] as? [[String: Any]])?.count == 3)

            _ = try app.saveOrder("shop-app", "ann", order: ["profile", "home"])
            let forUser = try app.request("GET", path + "&user=ann", headers: TestApp.admin)
            let userBar = try #require((try forUser.json() as? [String: Any])?["tabBar"] as? [String: Any])
            #expect((userBar["tabs"] as? [[String: Any]])?.first?["id"] as? String == "profile")
            #expect(userBar["customization"] != nil)
            #expect(try app.request("GET", path + "&user=a%20b", headers: TestApp.admin).status == 400)
            #expect(try app.request("GET", "/v1/clients/nobody/tabs/explain", headers: TestApp.admin).status == 404)
        }
    }

    @Test("publishing a condition the grammar does not know is a 422 pointing at it")
    func invalidCondition() throws {
        try TestApp.with { app in
            let response = try app.request(
                "PUT", "/v1/clients/shop-app/config", headers: TestApp.admin,
                json: ["tabs": [Self.tab("home"), Self.tab("shop", ["when": ["appVersion": ["$vgreater": "5.2"]]])]])
            #expect(response.status == 422)
            #expect(try response.problems().map(\.pointer) == ["/tabs/1/when/appVersion/$vgreater"])
        }
    }

    @Test("hostile context values against a $regex condition: never a 5xx, every request answered")
    func hostileRegex() throws {
        try TestApp.with { app in
            try app.publish(
                "shop-app",
                ["tabs": [Self.tab("home"), Self.tab("beta", ["when": ["attr.name": ["$regex": "^(a+)+$"]]])]])
            let bomb = String(repeating: "a", count: 40) + "!"
            let statuses = try [bomb, String(repeating: "a", count: 256), "aaa", "%F0%9F%98%80"].map { value in
                try app.request("GET", "/v1/clients/shop-app/tabs?attr.name=\(value)").status
            }
            #expect(statuses == [200, 200, 200, 200])
            let matched = try app.request("GET", "/v1/clients/shop-app/tabs?attr.name=aaa")
            #expect(try Self.ids(matched) == ["home", "beta"])
            let bombed = try app.request("GET", "/v1/clients/shop-app/tabs?attr.name=\(bomb)")
            #expect(try Self.ids(bombed) == ["home"])
        }
    }
}
