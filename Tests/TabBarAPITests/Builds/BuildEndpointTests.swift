import Foundation
import MicroHTTPTesting
@testable import TabBarAPI
import TabBarModel
import Testing

@Suite("Build manifests: registering them, and the tab bars of the builds they describe")
struct BuildEndpointTests {
    /// home, shop (ShopViewController, no `when`) and profile.
    private static var shopConfig: [String: Any] {
        Fixtures.config([Fixtures.tab("home"), Fixtures.tab("shop"), Fixtures.tab("profile")])
    }

    private static func manifest(_ classes: [String]) -> [String: Any] {
        ["buildNumber": "77", "viewControllers": classes]
    }

    private static func register(_ app: TestApp, _ build: String, _ classes: [String]) throws -> TestResponse {
        try app.request("PUT", "/v1/clients/shop/builds/\(build)", headers: TestApp.admin, json: Self.manifest(classes))
    }

    private static func defaultTabs(_ app: TestApp, _ query: String) throws -> [String] {
        let response = try app.request("GET", "/v1/clients/shop/tabs\(query)")
        guard response.status == 200 else { throw TestFailure("tabs: \(response.status) \(response.text)") }
        return try JSONDecoder().decode(ResolvedTabBar.self, from: response.body).tabs.map(\.id)
    }

    @Test("asking about builds of clients that have none and are not live keeps nothing for them")
    func unknownClientsLeaveNothing() throws {
        try TestApp.with { app in
            try app.publish("shop", Self.shopConfig)
            #expect(try Self.register(app, "ios/5.2.0", ["HomeViewController"]).status == 201)
            let kept = app.application.catalog.builds.clientCount
            for index in 0..<50 {
                let list = try app.request("GET", "/v1/clients/nobody-\(index)/builds", headers: TestApp.admin)
                #expect(list.status == 200 && list.text.contains(#""builds":[]"#), "\(list.text)")
                let build = try app.request("GET", "/v1/clients/nobody-\(index)/builds/ios/1.0", headers: TestApp.admin)
                #expect(build.status == 404)
                let preview = try app.request(
                    "POST", "/v1/clients/nobody-\(index)/config/preview?platform=ios&appVersion=1.0",
                    headers: TestApp.admin, json: Self.shopConfig)
                #expect(preview.status == 200, "\(preview.text)")
            }
            #expect(app.application.catalog.builds.clientCount == kept)
            #expect(try Self.register(app, "ios/5.3.0", ["HomeViewController"]).status == 201)
            #expect(try Self.defaultTabs(app, "?platform=ios&appVersion=5.3.0") == ["home"], "a live client's are kept")
        }
    }

    @Test("PUT answers 201, then 200 for an equal or a new manifest; GET with its ETag and 304; list; DELETE")
    func lifecycle() throws {
        try TestApp.with { app in
            let created = try Self.register(app, "ios/5.2.0", ["HomeViewController"])
            #expect(created.status == 201, "\(created.text)")
            let etag = try #require(created.headers["ETag"])
            let body = try #require(try created.json() as? [String: Any])
            #expect(body["platform"] as? String == "ios" && body["appVersion"] as? String == "5.2.0")
            #expect(body["names"] as? Int == 1)

            let equal = try Self.register(app, "ios/5.2", ["HomeViewController"])
            #expect(equal.status == 200)
            #expect(equal.headers["ETag"] == etag, "an equal manifest writes nothing")
            let replaced = try Self.register(app, "ios/5.2.0+78", ["HomeViewController", "ShopViewController"])
            #expect(replaced.status == 200)
            let replacedTag = try #require(replaced.headers["ETag"])
            #expect(replacedTag != etag)

            let read = try app.request("GET", "/v1/clients/shop/builds/ios/v5.2.0", headers: TestApp.admin)
            #expect(read.status == 200)
            #expect(read.headers["ETag"] == replacedTag)
            let manifest = try #require((try read.json() as? [String: Any])?["manifest"] as? [String: Any])
            #expect(manifest["viewControllers"] as? [String] == ["HomeViewController", "ShopViewController"])
            let revalidated = try app.request(
                "GET", "/v1/clients/shop/builds/ios/5.2.0", headers: TestApp.admin + [("If-None-Match", replacedTag)])
            #expect(revalidated.status == 304)

            #expect(try Self.register(app, "android/5.1.9", ["HomeViewController"]).status == 201)
            let list = try app.request("GET", "/v1/clients/shop/builds", headers: TestApp.admin)
            let builds = try #require((try list.json() as? [String: Any])?["builds"] as? [[String: Any]])
            #expect(builds.map { "\($0["platform"]!) \($0["appVersion"]!)" } == ["android 5.1.9", "ios 5.2.0"])
            #expect(builds.map { $0["buildNumber"] as? String } == ["77", "77"])

            #expect(try app.request("DELETE", "/v1/clients/shop/builds/ios/5.2.0", headers: TestApp.admin).status == 204)
            #expect(try app.request("GET", "/v1/clients/shop/builds/ios/5.2.0", headers: TestApp.admin).status == 404)
            #expect(try app.request("DELETE", "/v1/clients/shop/builds/ios/5.2.0", headers: TestApp.admin).status == 404)
        }
    }

    @Test("Bad input: a problem for each bad name, 422 past 10,000 names, 413 past the body limit, 400 for the path")
    func hostileInput() throws {
        try TestApp.with { app in
            let invalid = try app.request(
                "PUT", "/v1/clients/shop/builds/ios/5.2.0", headers: TestApp.admin,
                json: ["viewControllers": ["Home", "9Shop", 3], "nibs": "Shop", "extra": true])
            #expect(invalid.status == 422)
            let pointers = try Set(invalid.problems().map(\.pointer))
            #expect(pointers == ["/extra", "/viewControllers/1", "/viewControllers/2", "/nibs"])

            let many = (0..<10_001).map { "C\($0)" }
            let tooMany = try app.request(
                "PUT", "/v1/clients/shop/builds/ios/5.2.0", headers: TestApp.admin, json: ["viewControllers": many])
            #expect(tooMany.status == 422)

            let huge = Data(repeating: UInt8(ascii: " "), count: 5 * 1024 * 1024)
            let tooLarge = try app.request(
                "PUT", "/v1/clients/shop/builds/ios/5.2.0", headers: TestApp.adminJSON, body: huge)
            #expect(tooLarge.status == 413)

            let notUTF8 = Data(#"{"viewControllers": [""#.utf8) + Data([0xC3, 0x28]) + Data(#""]}"#.utf8)
            let refused = try app.request(
                "PUT", "/v1/clients/shop/builds/ios/5.2.0", headers: TestApp.adminJSON, body: notUTF8)
            #expect(refused.status == 422, "\(refused.status) \(refused.text)")
            #expect(try refused.problems().map(\.pointer) == ["/viewControllers/0"])
            let notUTF8Nib = Data(#"{"nibs": ["Shop"#.utf8) + Data([0xFF]) + Data(#""]}"#.utf8)
            let refusedNib = try app.request(
                "PUT", "/v1/clients/shop/builds/ios/5.2.0", headers: TestApp.adminJSON, body: notUTF8Nib)
            #expect(refusedNib.status == 422, "\(refusedNib.status) \(refusedNib.text)")
            #expect(try refusedNib.problems().map(\.pointer) == ["/nibs/0"])

            for path in ["iOS/5.2.0", "ios/five", "ios/1.2.3.4.5"] {
                let response = try Self.register(app, path, ["Home"])
                #expect(response.status == 400, "\(path): \(response.text)")
            }
            let list = try app.request("GET", "/v1/clients/shop/builds", headers: TestApp.admin)
            #expect(((try list.json() as? [String: Any])?["builds"] as? [[String: Any]])?.isEmpty == true)
        }
    }

    @Test("5.1.9 without ShopViewController never gets shop; 5.2.0 does, as 5.2 and 5.2.0+77; unregistered builds as before")
    func resolution() throws {
        try TestApp.with { app in
            try app.publish("shop", Self.shopConfig)
            let everything = ["home", "shop", "profile"]
            #expect(try Self.defaultTabs(app, "?platform=ios&appVersion=5.1.9") == everything, "no manifest yet")
            #expect(try Self.register(app, "ios/5.1.9", ["HomeViewController", "ProfileViewController"]).status == 201)
            #expect(
                try Self.register(app, "ios/5.2.0", ["HomeViewController", "ShopViewController", "ProfileViewController"])
                    .status == 201)

            #expect(try Self.defaultTabs(app, "?platform=ios&appVersion=5.1.9") == ["home", "profile"])
            #expect(try Self.defaultTabs(app, "?platform=ios&appVersion=5.2.0") == everything)
            #expect(try Self.defaultTabs(app, "?platform=ios&appVersion=5.2") == everything)
            #expect(try Self.defaultTabs(app, "?platform=ios&appVersion=5.2.0%2B77") == everything)
            #expect(try Self.defaultTabs(app, "?platform=android&appVersion=5.1.9") == everything)
            #expect(try Self.defaultTabs(app, "") == everything)
            let user = try app.userTabs("shop", "ann", query: "?platform=ios&appVersion=5.1.9")
            #expect(user.tabs.map(\.id) == ["home", "profile"])

            let old = try app.request("GET", "/v1/clients/shop/tabs?platform=ios&appVersion=5.1.9")
            let new = try app.request("GET", "/v1/clients/shop/tabs?platform=ios&appVersion=5.2.0")
            #expect(old.headers["ETag"] != new.headers["ETag"])
            let again = try app.request(
                "GET", "/v1/clients/shop/tabs?platform=ios&appVersion=5.1.9",
                headers: [("If-None-Match", old.headers["ETag"] ?? "")])
            #expect(again.status == 304)
        }
    }

    @Test("A user's order saved on 5.2.0 with shop: absent on 5.1.9, not dropped, and back in its place on 5.2.0")
    func savedOrderAcrossBuilds() throws {
        try TestApp.with { app in
            try app.publish("shop", Self.shopConfig)
            _ = try Self.register(app, "ios/5.1.9", ["HomeViewController", "ProfileViewController"])
            _ = try Self.register(app, "ios/5.2.0", ["HomeViewController", "ShopViewController", "ProfileViewController"])
            let saved = try app.request(
                "PUT", "/v1/clients/shop/users/ann/tab-order?platform=ios&appVersion=5.2.0",
                json: ["order": ["shop", "profile", "home"], "hidden": []])
            #expect(saved.status == 200, "\(saved.text)")

            let onOld = try app.userTabs("shop", "ann", query: "?platform=ios&appVersion=5.1.9")
            #expect(onOld.tabs.map(\.id) == ["profile", "home"])
            #expect(onOld.customization?.dropped == [])
            let reordered = try app.request(
                "PUT", "/v1/clients/shop/users/ann/tab-order?platform=ios&appVersion=5.1.9",
                json: ["order": ["home", "profile"], "hidden": []])
            #expect(reordered.status == 200, "\(reordered.text)")
            let onNew = try app.userTabs("shop", "ann", query: "?platform=ios&appVersion=5.2.0")
            #expect(onNew.tabs.map(\.id) == ["shop", "home", "profile"], "shop keeps its place before home")
        }
    }

    @Test("explain and preview give the build's reason with its pointer, or say that no manifest is registered")
    func explained() throws {
        try TestApp.with { app in
            try app.publish("shop", Self.shopConfig)
            _ = try Self.register(app, "ios/5.1.9", ["HomeViewController", "ProfileViewController"])
            func explain(_ query: String) throws -> [String: Any] {
                let response = try app.request(
                    "GET", "/v1/clients/shop/tabs/explain\(query)", headers: TestApp.admin)
                guard response.status == 200 else { throw TestFailure("explain: \(response.status) \(response.text)") }
                return try #require(try response.json() as? [String: Any])
            }
            let old = try explain("?platform=ios&appVersion=5.1.9")
            #expect((old["build"] as? [String: Any])?["registered"] as? Bool == true)
            let shop = try #require((old["tabs"] as? [[String: Any]])?.first { $0["id"] as? String == "shop" })
            #expect(shop["present"] as? Bool == false)
            let reason = try #require(shop["reason"] as? [String: Any])
            #expect(reason["message"] as? String == "build ios 5.1.9 has no viewController ShopViewController")
            #expect(reason["pointer"] as? String == "/tabs/1/destination/name")
            let tabBar = try #require(old["tabBar"] as? [String: Any])
            #expect((tabBar["tabs"] as? [[String: Any]])?.map { $0["id"] as? String } == ["home", "profile"])

            let android = try explain("?platform=android&appVersion=5.1.9")
            #expect((android["build"] as? [String: Any])?["registered"] as? Bool == false)
            #expect(try explain("")["build"] == nil)

            let preview = try app.request(
                "POST", "/v1/clients/shop/config/preview?platform=ios&appVersion=5.1.9", headers: TestApp.admin,
                json: Self.shopConfig)
            #expect(preview.status == 200, "\(preview.text)")
            let previewed = try #require(try preview.json() as? [String: Any])
            let previewTabs = (previewed["tabBar"] as? [String: Any])?["tabs"] as? [[String: Any]]
            #expect(previewTabs?.map { $0["id"] as? String } == ["home", "profile"])
        }
    }

    @Test("A dry run and a publish list the builds that will not show a tab, and the tabs no build can open")
    func publishWarnings() throws {
        try TestApp.with { app in
            try app.publish("shop", Fixtures.config([Fixtures.tab("home"), Fixtures.tab("profile")]))
            #expect(try Self.register(app, "ios/5.1.9", ["HomeViewController", "ProfileViewController"]).status == 201)
            #expect(
                try Self.register(app, "ios/5.2.0", ["HomeViewController", "ShopViewController", "ProfileViewController"])
                    .status == 201)

            var adding = Self.shopConfig
            var tabs = try #require(adding["tabs"] as? [[String: Any]])
            tabs.append(Fixtures.tab("cart"))
            adding["tabs"] = tabs
            let dryRun = try app.request(
                "PUT", "/v1/clients/shop/config?dryRun=true", headers: TestApp.admin, json: adding)
            #expect(dryRun.status == 200, "\(dryRun.text)")
            let answer = try JSONDecoder().decode(DryRunBody.self, from: dryRun.body)
            let builds = try #require(answer.builds)
            #expect(builds.map { "\($0.platform) \($0.appVersion) \($0.buildNumber ?? "-")" } == ["ios 5.1.9 77", "ios 5.2.0 77"])
            #expect(builds[0].tabs.map(\.id) == ["shop", "cart"])
            #expect(builds[0].tabs[0].pointer == "/tabs/1")
            #expect(builds[0].tabs[0].missingPointer == "/tabs/1/destination/name")
            #expect(builds[0].tabs[0].reason == "has no viewController ShopViewController")
            #expect(builds[1].tabs.map(\.id) == ["cart"])
            #expect(answer.unopenable?.map(\.id) == ["cart"])
            #expect(answer.unopenable?.first?.missingPointer == "/tabs/3/destination/name")

            let published = try app.request("PUT", "/v1/clients/shop/config", headers: TestApp.admin, json: adding)
            #expect(published.status == 201)
            let body = try #require(try published.json() as? [String: Any])
            #expect(body["version"] as? Int == 2)
            let publishedBuilds = try #require(body["builds"] as? [[String: Any]])
            #expect(publishedBuilds.map { $0["appVersion"] as? String } == ["5.1.9", "5.2.0"])
            #expect((body["unopenable"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["cart"])

            let other = try app.request(
                "PUT", "/v1/clients/other/config?dryRun=true", headers: TestApp.admin, json: adding)
            let unregistered = try JSONDecoder().decode(DryRunBody.self, from: other.body)
            #expect(unregistered.builds == [] && unregistered.unopenable == [], "no build registered: no warning")
        }
    }

    @Test("Registering, replacing and removing a manifest are in the audit log; an equal one is not")
    func audited() throws {
        try TestApp.with { app in
            let version = try app.publish("shop", Self.shopConfig)
            #expect(try Self.register(app, "ios/5.2.0", ["HomeViewController"]).status == 201)
            #expect(try Self.register(app, "ios/5.2", ["HomeViewController"]).status == 200)
            #expect(try Self.register(app, "ios/5.2.0", ["HomeViewController", "ShopViewController"]).status == 200)
            #expect(try app.request("DELETE", "/v1/clients/shop/builds/ios/5.2.0", headers: TestApp.admin).status == 204)

            let log = try app.request("GET", "/v1/audit?client=shop", headers: TestApp.admin)
            let entries = try #require((try log.json() as? [String: Any])?["entries"] as? [[String: Any]])
            #expect(entries.map { $0["action"] as? String } == ["publish", "registerBuild", "registerBuild", "removeBuild"])
            let builds = entries.dropFirst().map { $0["build"] as? [String: Any] }
            #expect(builds.map { $0?["appVersion"] as? String } == ["5.2.0", "5.2.0", "5.2.0"])
            #expect(builds.map { $0?["platform"] as? String } == ["ios", "ios", "ios"])
            let revisions = builds.compactMap { $0?["revision"] as? Int }
            #expect(revisions.count == 3 && revisions[0] < revisions[1] && revisions[1] == revisions[2])
            #expect(entries.dropFirst().allSatisfy { $0["version"] as? Int == version && $0["key"] as? String != nil })
        }
    }
}
