import Foundation
import MicroHTTPTesting
import TabBarAPI
import TabBarModel
import TabBarStore
import Testing
import TestSupport

/// `GET /v1/audit`: an entry for each change made through the API, in order, with the key that made it, kept by
/// the store across a restart; on the file store and on PostgreSQL.
@Suite("audit log endpoint")
struct AuditEndpointTests {
    /// Where the service keeps its data.
    enum StoreKind: String, CustomStringConvertible {
        case file, postgres
        var description: String { rawValue }
        /// The stores this build has (PostgreSQL with the `PostgreSQL` trait).
        static let built: [StoreKind] = PostgresStoreURL.isBuiltIn ? [.file, .postgres] : [.file]
    }

    private static let publisher = "tck_audit-publisher-0123456789"
    private static let operator_ = "tck_audit-operator-0123456789"
    private static let reader = "tck_audit-reader-0123456789"

    private static func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer \(token)")] }

    /// Runs `body` against the service started twice over the same data (a restart in between).
    private static func withRestartedService(
        _ kind: StoreKind, _ first: (TestApp) throws -> Void, then second: (TestApp) throws -> Void
    ) throws {
        let directory = try TemporaryDirectory("audit")
        defer { directory.remove() }
        let keys = directory.url.appendingPathComponent("keys.json")
        try AdminKeysFile(keys: [
            AdminKey(name: "ci", scope: .publish, token: publisher),
            AdminKey(name: "ops", scope: .admin, token: operator_),
            AdminKey(name: "dashboard", scope: .read, token: reader),
        ]).encoded().write(to: keys)
        let database = kind == .postgres ? try TestPostgres.createDatabase() : nil
        defer { if let database { TestPostgres.dropDatabase(database) } }
        let configure: (inout ApplicationConfiguration) -> Void = { configuration in
            configuration.adminKeysFile = keys
            configuration.adminToken = nil
            configuration.seedSample = false
            if let database { configuration.storeURL = try? ApplicationConfiguration.parseStoreURL(database) }
        }
        let data = directory.url.appendingPathComponent("data")
        try TestApp.with(dataDirectory: data, configure: configure, first)
        try TestApp.with(dataDirectory: data, configure: configure, second)
    }

    private static func config(_ ids: [String]) -> [String: Any] {
        [
            "tabs": ids.map { id in
                [
                    "id": id, "title": ["key": "tab.\(id)", "default": id.capitalized], "icon": ["image": id],
                    "destination": ["type": "viewController", "name": "\(id.capitalized)ViewController"],
                ] as [String: Any]
            }
        ]
    }

    private static func entries(
        _ app: TestApp, _ query: String = ""
    ) throws -> (entries: [[String: Any]], next: String?) {
        let response = try app.request("GET", "/v1/audit\(query)", headers: bearer(operator_))
        guard response.status == 200, let body = try response.json() as? [String: Any],
            let entries = body["entries"] as? [[String: Any]]
        else { throw TestFailure("audit: \(response.status) \(response.text)") }
        #expect(response.headers["Cache-Control"] == "no-store")
        return (entries, body["next"] as? String)
    }

    @Test(
        "publish, rollback, import and delete each leave one entry in order, kept across a restart; none for the rest",
        arguments: StoreKind.built)
    func everyKindOfChange(kind: StoreKind) throws {
        var expected: [[String: Any]] = []
        try Self.withRestartedService(kind) { app in
            let json = Self.bearer(Self.publisher)
            let first = try app.request(
                "PUT", "/v1/clients/ios/config?note=first", headers: json + [("X-Request-Id", "audit-first")],
                json: Self.config(["home", "search"]))
            #expect(first.status == 201)
            let dryRun = try app.request(
                "PUT", "/v1/clients/ios/config?dryRun=true", headers: Self.bearer(Self.reader),
                json: Self.config(["home", "feed"]))
            #expect(dryRun.status == 200)
            let second = try app.request(
                "PUT", "/v1/clients/ios/config", headers: json, json: Self.config(["home", "search", "shop"]))
            #expect(second.status == 201)
            let stale = try app.request(
                "PUT", "/v1/clients/ios/config", headers: json + [("If-Match", "\"v1\"")],
                json: Self.config(["home", "feed"]))
            #expect(stale.status == 412)
            let invalid = try app.request("PUT", "/v1/clients/ios/config", headers: json, json: ["tabs": []])
            #expect(invalid.status == 422)
            let rollback = try app.request(
                "POST", "/v1/clients/ios/config/rollback", headers: json, json: ["version": 1])
            #expect(rollback.status == 201)
            let plist = try Data(
                contentsOf: PlistImportTests.fixtures.appendingPathComponent("ApplicationHierarchy.plist"))
            let imported = try app.request(
                "POST", "/v1/import/plist?client=android", headers: Self.bearer(Self.publisher), body: plist)
            #expect(imported.status == 201)
            let deleted = try app.request("DELETE", "/v1/clients/ios/config", headers: Self.bearer(Self.operator_))
            #expect(deleted.status == 204)
            let missing = try app.request("DELETE", "/v1/clients/ios/config", headers: Self.bearer(Self.operator_))
            #expect(missing.status == 404)

            let (entries, next) = try Self.entries(app)
            #expect(next == nil)
            #expect(entries.map { $0["action"] as? String } == ["publish", "publish", "rollback", "import", "delete"])
            #expect(entries.map { $0["key"] as? String } == ["ci", "ci", "ci", "ci", "ops"])
            #expect(entries.map { $0["client"] as? String } == ["ios", "ios", "ios", "android", "ios"])
            #expect(entries.map { $0["version"] as? Int } == [1, 2, 3, 1, 3])
            #expect(entries.map { $0["previousVersion"] as? Int } == [nil, 1, 2, nil, 3])
            let sequences = entries.compactMap { $0["sequence"] as? Int }
            #expect(sequences.count == 5 && sequences == sequences.sorted() && Set(sequences).count == 5)
            #expect(entries[0]["tabsAdded"] as? [String] == ["home", "search"])
            #expect(entries[0]["note"] as? String == "first")
            #expect(entries[0]["requestId"] as? String == "audit-first")
            #expect(entries[1]["tabsAdded"] as? [String] == ["shop"])
            #expect(entries[1]["tabsRemoved"] as? [String] == [])
            #expect(entries[2]["tabsRemoved"] as? [String] == ["shop"])
            #expect(entries[2]["rollbackOf"] as? Int == 1)
            #expect(entries[2]["note"] as? String == "rollback to version 1")
            #expect((entries[3]["tabsAdded"] as? [String])?.isEmpty == false)
            #expect(entries[4]["tabsRemoved"] as? [String] == ["home", "search"])
            #expect(entries[4]["tabsAdded"] as? [String] == [])
            for entry in entries {
                #expect((entry["time"] as? String).flatMap(Timestamp.parseTimestamp) != nil)
                #expect(entry["requestId"] is String)
            }
            expected = entries
        } then: { app in
            let (entries, _) = try Self.entries(app)
            #expect(NSArray(array: entries).isEqual(to: expected), "the same entries after a restart")
            let published = try app.request(
                "PUT", "/v1/clients/ios/config", headers: Self.bearer(Self.publisher),
                json: Self.config(["home", "feed"]))
            #expect(published.status == 201)
            let after = try Self.entries(app, "?client=ios").entries
            #expect(after.map { $0["version"] as? Int } == [1, 2, 3, 3, 4])
            #expect(after.last?["previousVersion"] == nil, "the client was deleted: nothing was live before")
            #expect((after.last?["sequence"] as? Int ?? 0) > (expected.last?["sequence"] as? Int ?? .max))
        }
    }

    @Test("filters and pages: client, since, after, limit with a next link", arguments: StoreKind.built)
    func filtersAndPages(kind: StoreKind) throws {
        try Self.withRestartedService(kind) { app in
            let json = Self.bearer(Self.publisher)
            for round in 0..<3 {
                for client in ["ios", "android"] {
                    let ids = round == 1 ? ["home", "feed"] : ["home", "search"]
                    let response = try app.request(
                        "PUT", "/v1/clients/\(client)/config", headers: json, json: Self.config(ids))
                    #expect(response.status == 201)
                }
            }
            let all = try Self.entries(app).entries
            #expect(all.count == 6)
            let ios = try Self.entries(app, "?client=ios").entries
            #expect(ios.map { $0["version"] as? Int } == [1, 2, 3])
            #expect(ios.allSatisfy { $0["client"] as? String == "ios" })
            #expect(try Self.entries(app, "?since=2999-01-01T00:00:00Z").entries.isEmpty)
            #expect(try Self.entries(app, "?since=2000-01-01T00:00:00%2B02:00").entries.count == 6)

            func follow(_ first: String) throws -> (sequences: [[Int]], links: [String]) {
                var pages: [[Int]] = []
                var links: [String] = []
                var link: String? = first
                while let target = link {
                    let response = try app.request("GET", target, headers: Self.bearer(Self.operator_))
                    let body = try #require(try response.json() as? [String: Any])
                    pages.append((body["entries"] as? [[String: Any]] ?? []).compactMap { $0["sequence"] as? Int })
                    link = body["next"] as? String
                    links += link.map { [$0] } ?? []
                }
                return (pages, links)
            }
            let (pages, _) = try follow("/v1/audit?limit=4")
            #expect(pages.map(\.count) == [4, 2])
            #expect(pages.flatMap { $0 } == all.compactMap { $0["sequence"] as? Int })
            let since = "2000-01-01T02:00:00.5%2B02:00"
            let (sincePages, links) = try follow("/v1/audit?since=\(since)&limit=4")
            #expect(sincePages == pages)
            #expect(links.count == 1 && links[0].contains("since=2000-01-01T02%3A00%3A00.5%2B02%3A00"), "\(links)")
            #expect(try Self.entries(app, "?after=5006052397586876780484748292128768").entries.isEmpty)
            let afterSecond = try Self.entries(app, "?after=\(pages[0][1])&client=android").entries
            #expect(afterSecond.map { $0["version"] as? Int } == [2, 3])
        } then: { _ in }
    }

    @Test("bad parameters are 400 naming them; the audit log needs the admin scope")
    func refusals() throws {
        try Self.withRestartedService(.file) { app in
            for (query, parameter) in [
                ("client=Bad_Client", "client"), ("since=yesterday", "since"), ("since=2026-02-30T00:00:00Z", "since"),
                ("after=-1", "after"), ("after=1e3", "after"), ("limit=0", "limit"), ("limit=1001", "limit"),
                ("limit=%2B5", "limit"),
            ] {
                let response = try app.request("GET", "/v1/audit?\(query)", headers: Self.bearer(Self.operator_))
                #expect(response.status == 400, "\(query)")
                let errors = (try response.json() as? [String: Any])?["errors"] as? [[String: Any]]
                #expect(errors?.map { $0["parameter"] as? String } == [parameter], "\(query): \(response.text)")
            }
            #expect(try app.request("GET", "/v1/audit", headers: Self.bearer(Self.publisher)).status == 403)
            #expect(try app.request("GET", "/v1/audit", headers: Self.bearer(Self.reader)).status == 403)
            #expect(try app.request("GET", "/v1/audit").status == 401)
            let token = try app.request("GET", "/v1/audit", headers: TestApp.admin)
            #expect(token.status == 401, "no token key beside a keys file")
        } then: { _ in }
    }
}
