import Foundation
import MicroHTTPTesting
import TabBarModel
import Testing
import TestSupport

@Suite("ApplicationHierarchy.plist import")
struct PlistImportTests {
    static let fixtures = Repository.url("Tests/Fixtures")

    @Test("POST /v1/import/plist publishes the XML and the binary form alike", arguments: [
        "ApplicationHierarchy.plist", "ApplicationHierarchy.binary.plist",
    ])
    func importOverHTTP(fixture: String) throws {
        try TestApp.with { app in
            let plist = try Data(contentsOf: Self.fixtures.appendingPathComponent(fixture))
            let response = try app.request(
                "POST", "/v1/import/plist?client=tutorial", headers: TestApp.admin + [("Content-Type", "application/x-plist")],
                body: plist)
            #expect(response.status == 201)
            #expect((try response.json() as? [String: Any])?["version"] as? Int == 1)
            let bar = try JSONDecoder().decode(ResolvedTabBar.self, from: try app.request("GET", "/v1/clients/tutorial/tabs").body)
            #expect(bar.tabs.first?.id == "home")
            #expect(bar.tabs.first?.destination.name == "HomeViewController")
            #expect(bar.tabs.first?.destination.embedInNavigationController == true)
        }
    }

    @Test("unknown keys are reported as 422; a non-plist body is 400; the client parameter is required")
    func rejected() throws {
        try TestApp.with { app in
            let bad = try Data(contentsOf: Self.fixtures.appendingPathComponent("ApplicationHierarchy.unknown-key.plist"))
            let response = try app.request("POST", "/v1/import/plist?client=tutorial", headers: TestApp.admin, body: bad)
            #expect(response.status == 422)
            let problems = ((try response.json() as? [String: Any])?["errors"] as? [[String: Any]]) ?? []
            #expect(problems.count >= 2)
            #expect(try app.request("GET", "/v1/clients/tutorial/tabs").status == 404)

            let garbage = try app.request("POST", "/v1/import/plist?client=tutorial", headers: TestApp.admin, body: Data("nope".utf8))
            #expect(garbage.status == 400)
            let missing = try app.request("POST", "/v1/import/plist", headers: TestApp.admin, body: Data("nope".utf8))
            #expect(missing.status == 400)
            #expect(try app.request("POST", "/v1/import/plist?client=tutorial", body: bad).status == 401)
        }
    }

    @Test("tabconfig import-plist publishes into a data directory")
    func command() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try ServerProcess.run([
            "import-plist", Self.fixtures.appendingPathComponent("ApplicationHierarchy.binary.plist").path,
            "--client", "tutorial", "--data-dir", directory.path,
        ])
        #expect(status == 0)
        #expect(output.contains("published version 1 of client tutorial"))
        let statuses = try TestApp.with(dataDirectory: directory) { app in
            [try app.request("GET", "/v1/clients/tutorial/tabs").status, try app.request("GET", "/v1/clients/ios-phone/tabs").status]
        }
        #expect(statuses == [200, 404])
    }

    @Test("tabconfig import-plist prints every problem, then how many, and publishes nothing")
    func commandProblems() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = directory.appendingPathComponent("bad.plist")
        try Data(
            """
            <?xml version="1.0"?><plist version="1.0"><array><dict><key>TabBarTitle</key><string>Home</string>\
            <key>Colour</key><string>red</string></dict></array></plist>
            """.utf8
        ).write(to: plist)
        let (status, output) = try ServerProcess.run([
            "import-plist", plist.path, "--client", "tutorial", "--data-dir", directory.appendingPathComponent("data").path,
        ])
        #expect(status == 1)
        let lines = output.split(separator: "\n")
        #expect(lines.contains { $0.contains("/0/Colour: unknown key") })
        #expect(lines.last == "\(plist.path): \(lines.count - 1) problems")
    }
}
