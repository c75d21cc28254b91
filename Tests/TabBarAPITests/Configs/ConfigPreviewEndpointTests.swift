import Foundation
import MicroHTTPTesting
import TabBarAPI
import TabBarModel
import Testing

@Suite("POST …/config/preview")
struct ConfigPreviewEndpointTests {
    /// The design example with the search tab renamed and a French title.
    private static var renamedSearch: [String: Any] {
        var config = Fixtures.designExample
        var tabs = config["tabs"] as! [[String: Any]]
        tabs[1]["title"] = ["default": "Find", "localized": ["fr": "Chercher"]]
        config["tabs"] = tabs
        return config
    }

    private static func preview(
        _ app: TestApp, _ client: String, query: String = "", json: Any
    ) throws -> (body: [String: Any], tabBar: ResolvedTabBar) {
        let response = try app.request(
            "POST", "/v1/clients/\(client)/config/preview\(query)", headers: TestApp.admin, json: json)
        guard response.status == 200, let body = try response.json() as? [String: Any] else {
            throw TestFailure("preview: \(response.status) \(response.text)")
        }
        #expect(response.headers["Cache-Control"] == "no-store")
        let tabBar = try JSONSerialization.data(withJSONObject: body["tabBar"] ?? [:])
        return (body, try JSONDecoder().decode(ResolvedTabBar.self, from: tabBar))
    }

    @Test("a client without a config: the document resolved for the locale and context as version 1; nothing stored")
    func newClient() throws {
        try TestApp.with { app in
            let preview = try Self.preview(
                app, "fresh", query: "?locale=fr&platform=ios&appVersion=5.2.0", json: Self.renamedSearch)
            #expect(preview.body["version"] as? Int == 1)
            #expect(preview.tabBar.version == 1)
            #expect(preview.tabBar.locale == "fr")
            let titles = ["Home", "Chercher", "Library", "Favorites", "Profile", "Settings"]
            #expect(preview.tabBar.tabs.map(\.title) == titles)
            #expect(preview.tabBar.tabs.map(\.placement) == [.bar, .bar, .bar, .bar, .more, .more])
            #expect(preview.tabBar.customization == nil)
            let context = preview.body["context"] as? [String: Any]
            #expect(context?["platform"] as? String == "ios")
            #expect(context?["appVersion"] as? String == "5.2.0")
            #expect(try app.request("GET", "/v1/clients/fresh/config", headers: TestApp.admin).status == 404)
            let clients = try app.request("GET", "/v1/clients", headers: TestApp.admin)
            #expect(clients.status == 200)
            #expect(!clients.text.contains("fresh"))
        }
    }

    @Test("with a user: their saved order merged over the document, equal to their tab bar once it is published")
    func userPreviewMatchesPublishedAnswer() throws {
        try TestApp.with { app in
            try app.publish("app", Fixtures.designExample)
            let saved = try app.saveOrder(
                "app", "ana", order: ["home", "profile", "search", "library", "favorites", "settings"])
            #expect(saved.status == 200)
            let preview = try Self.preview(app, "app", query: "?user=ana", json: Self.renamedSearch)
            #expect(preview.body["version"] as? Int == 2)
            #expect(preview.tabBar.tabs.map(\.id) == ["home", "profile", "search", "library", "favorites", "settings"])
            #expect(preview.tabBar.tabs[2].title == "Find")
            #expect(preview.tabBar.customization?.source == "user")
            #expect(preview.tabBar.customization?.revision == 1)
            #expect(try app.publish("app", Self.renamedSearch) == 2)
            #expect(try app.userTabs("app", "ana") == preview.tabBar)
        }
    }

    @Test("an invalid document: 422 with every problem's pointer; malformed JSON and parameters: 400; no key: 401")
    func refusals() throws {
        try TestApp.with { app in
            try app.publish("app", Fixtures.designExample)
            var invalid = Fixtures.designExample
            var tabs = invalid["tabs"] as! [[String: Any]]
            tabs[0]["id"] = "Home!"
            tabs[2]["title"] = ["default": ""]
            invalid["tabs"] = tabs
            let path = "/v1/clients/app/config/preview"
            let refused = try app.request("POST", path, headers: TestApp.admin, json: invalid)
            #expect(refused.status == 422)
            #expect(refused.headers["Content-Type"] == "application/problem+json")
            let errors = (try refused.json() as? [String: Any])?["errors"] as? [[String: Any]] ?? []
            #expect(errors.compactMap { $0["pointer"] as? String } == ["/tabs/0/id", "/tabs/2/title/default"])
            let malformed = try app.request("POST", path, headers: TestApp.adminJSON, body: Data("{\"tabs\":".utf8))
            #expect(malformed.status == 400)
            let parameter = try app.request("POST", "\(path)?platform=no%20way", headers: TestApp.admin, json: invalid)
            #expect(parameter.status == 400)
            let errorsOfParameter = (try parameter.json() as? [String: Any])?["errors"] as? [[String: Any]]
            #expect(errorsOfParameter?.first?["parameter"] as? String == "platform")
            #expect(try app.request("POST", path, json: Fixtures.designExample).status == 401)
            let versions = try app.request("GET", "/v1/clients/app/config/versions", headers: TestApp.admin)
            #expect(((try versions.json() as? [String: Any])?["versions"] as? [Any])?.count == 1)
        }
    }
}
