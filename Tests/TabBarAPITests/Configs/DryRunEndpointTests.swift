import Foundation
import MicroHTTPTesting
import TabBarAPI
import TabBarModel
import Testing

@Suite("PUT …/config?dryRun=true")
struct DryRunEndpointTests {
    private static let path = "/v1/clients/app/config"

    /// The design example with the search tab's title changed.
    private static var renamedSearch: [String: Any] {
        var config = Fixtures.designExample
        var tabs = config["tabs"] as! [[String: Any]]
        tabs[1]["title"] = ["default": "Find"]
        config["tabs"] = tabs
        return config
    }

    private static func dryRun(_ response: TestResponse) throws -> DryRunBody {
        guard response.status == 200 else { throw TestFailure("dry run: \(response.status) \(response.text)") }
        return try JSONDecoder().decode(DryRunBody.self, from: response.body)
    }

    /// The version numbers of `client`, newest first.
    private static func versions(_ app: TestApp, _ client: String) throws -> [Int] {
        let response = try app.request("GET", "/v1/clients/\(client)/config/versions", headers: TestApp.admin)
        let versions = (try response.json() as? [String: Any])?["versions"] as? [[String: Any]] ?? []
        return versions.compactMap { $0["version"] as? Int }
    }

    @Test("a changed document: 200 with the live version, the tab summary and each change; nothing published")
    func changedDocument() throws {
        try TestApp.with { app in
            try app.publish("app", Fixtures.designExample)
            let response = try app.request(
                "PUT", "\(Self.path)?dryRun=true", headers: TestApp.admin, json: Self.renamedSearch)
            #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
            let body = try Self.dryRun(response)
            #expect(body.client == "app")
            #expect(body.liveVersion == 1)
            #expect(body.liveETag == "\"c1\"")
            #expect(body.changed)
            #expect(body.diff.tabsChanged == ["search"])
            #expect(body.diff.tabsAdded.isEmpty && body.diff.tabsRemoved.isEmpty)
            #expect(body.diff.changes.map(\.line) == ["/tabs/1/title/default: \"Search\" → \"Find\""])
            let object = try #require(try response.json() as? [String: Any])
            let change = try #require((object["changes"] as? [[String: Any]])?.first)
            #expect(change["kind"] as? String == "changed")
            #expect(change["before"] as? String == "Search")
            #expect(change["after"] as? String == "Find")
            #expect(try Self.versions(app, "app") == [1])
        }
    }

    @Test("a document equal to the live one: changed false, no changes")
    func identicalDocument() throws {
        try TestApp.with { app in
            try app.publish("app", Fixtures.designExample)
            try app.publish("app", Fixtures.designExample)
            let body = try Self.dryRun(
                try app.request(
                    "PUT", "\(Self.path)?dryRun=true", headers: TestApp.admin, json: Fixtures.designExample))
            #expect(!body.changed)
            #expect(body.liveVersion == 2)
            #expect(body.diff.isEmpty)
            #expect(body.diff.tabsChanged.isEmpty)
            #expect(try Self.versions(app, "app") == [2, 1])
        }
    }

    @Test("a new client: live version 0, every tab added, and the client still does not exist")
    func newClient() throws {
        try TestApp.with { app in
            let body = try Self.dryRun(
                try app.request(
                    "PUT", "\(Self.path)?dryRun=true", headers: TestApp.admin, json: Fixtures.designExample))
            #expect(body.liveVersion == 0)
            #expect(body.liveETag == nil)
            #expect(body.changed)
            #expect(body.diff.tabsAdded == ["home", "search", "library", "favorites", "profile", "settings"])
            #expect(body.diff.changes.map(\.pointer).first == "/defaultLocale")
            #expect(try app.request("GET", Self.path, headers: TestApp.admin).status == 404)
            let list = try app.request("GET", "/v1/clients", headers: TestApp.admin)
            let clients = (try list.json() as? [String: Any])?["clients"] as? [[String: Any]] ?? []
            #expect(clients.map { $0["client"] as? String } == ["ios-phone"])
        }
    }

    @Test("an invalid document is refused as a publish would be: 422 with every pointer")
    func invalidDocument() throws {
        try TestApp.with { app in
            let document: [String: Any] = ["tabs": [Fixtures.tab("a")], "maxVisibleTabs": 42, "colour": "typo"]
            let response = try app.request(
                "PUT", "/v1/clients/ios-phone/config?dryRun=true", headers: TestApp.admin, json: document)
            #expect(response.status == 422)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(Set(try response.problems().map(\.pointer)) == ["/tabs", "/maxVisibleTabs", "/colour"])
            #expect(try Self.versions(app, "ios-phone") == [1])
        }
    }

    @Test("a dry run sends no event: the next event is the next real publish")
    func noEvent() throws {
        try TestApp.with { app in
            let events = try EventReader(port: app.port, path: "/v1/clients/ios-phone/tabs/events")
            defer { events.close() }
            #expect(try events.next().hasPrefix("id: 1\n"))
            for _ in 0..<3 {
                let response = try app.request(
                    "PUT", "/v1/clients/ios-phone/config?dryRun=true", headers: TestApp.admin,
                    json: Fixtures.designExample)
                #expect(response.status == 200)
            }
            try app.publish("ios-phone", Fixtures.designExample)
            #expect(try events.next(skippingHeartbeats: true).hasPrefix("id: 2\n"))
            #expect(try Self.versions(app, "ios-phone") == [2, 1])
        }
    }

    @Test("dryRun=false publishes; any other value, or the parameter twice, is 400 naming it", arguments: [
        "yes", "TRUE", "1", "", "true&dryRun=false", "false&dryRun=false",
    ])
    func badValue(value: String) throws {
        try TestApp.with { app in
            let response = try app.request(
                "PUT", "/v1/clients/ios-phone/config?dryRun=\(value)", headers: TestApp.admin,
                json: Fixtures.designExample)
            #expect(response.status == 400)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            let problem = try #require(try response.json() as? [String: Any])
            let errors = problem["errors"] as? [[String: Any]] ?? []
            #expect(errors.map { $0["parameter"] as? String } == ["dryRun"])
            let published = try app.request(
                "PUT", "/v1/clients/ios-phone/config?dryRun=false", headers: TestApp.admin,
                json: Fixtures.designExample)
            #expect(published.status == 201)
            #expect(try Self.versions(app, "ios-phone") == [2, 1])
        }
    }

    /// PUTs the design example to `target` with one condition header and returns the status.
    private static func status(_ app: TestApp, _ target: String, _ condition: (String, String)) throws -> Int {
        try app.request("PUT", target, headers: TestApp.admin + [condition], json: Fixtures.designExample).status
    }

    @Test("If-Match and If-None-Match are checked as for a publish: 412 when they fail")
    func conditions() throws {
        try TestApp.with { app in
            try app.publish("app", Fixtures.designExample)
            try app.publish("app", Self.renamedSearch)
            let dryRun = "\(Self.path)?dryRun=true"
            #expect(try Self.status(app, dryRun, ("If-Match", "\"c1\"")) == 412)
            #expect(try Self.status(app, dryRun, ("If-Match", "\"c2\"")) == 200)
            #expect(try Self.status(app, dryRun, ("If-None-Match", "*")) == 412)
            #expect(try Self.status(app, Self.path, ("If-Match", "\"c1\"")) == 412)
            #expect(try Self.versions(app, "app") == [2, 1])
        }
    }

    @Test("If-None-Match: * publishes a client that does not exist yet, and only then")
    func createOnly() throws {
        try TestApp.with { app in
            let statuses = try ["*", "*", "\"c1\"", "\"c7\""].map {
                try Self.status(app, Self.path, ("If-None-Match", $0))
            }
            #expect(statuses == [201, 412, 412, 201])
            #expect(try Self.versions(app, "app") == [2, 1])
        }
    }

    @Test("a dry run needs the admin token")
    func authorization() throws {
        try TestApp.with { app in
            let response = try app.request("PUT", "\(Self.path)?dryRun=true", json: Fixtures.designExample)
            #expect(response.status == 401)
        }
    }
}
