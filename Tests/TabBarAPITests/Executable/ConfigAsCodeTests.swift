import Foundation
import MicroHTTPTesting
import Testing
import TestSupport

/// `tabconfig export` and `tabconfig apply`: the real executable against the real server.
@Suite("config as code: export and apply")
struct ConfigAsCodeTests {
    /// A test's server, its folder for config files and the server options of the commands.
    private struct Setup {
        let app: TestApp
        let folder: TemporaryDirectory
        var configs: URL { folder.child("configs") }
        var server: [String] { ["--url", "http://127.0.0.1:\(app.port)", "--token", TestApp.adminToken] }

        /// Runs `tabconfig COMMAND configs OPTIONS… ARGUMENTS…`.
        func run(_ command: String, _ arguments: String...) throws -> (status: Int32, output: String) {
            let (status, output) = try ServerProcess.run([command, configs.path] + server + arguments)
            return (status, output)
        }

        func file(_ client: String) -> URL {
            configs.appendingPathComponent("\(client).json")
        }

        /// The version numbers of `client`, newest first.
        func versions(_ client: String) throws -> [Int] {
            let response = try app.request("GET", "/v1/clients/\(client)/config/versions", headers: TestApp.admin)
            let versions = (try response.json() as? [String: Any])?["versions"] as? [[String: Any]] ?? []
            return versions.compactMap { $0["version"] as? Int }
        }
    }

    private static func with(_ body: (Setup) throws -> Void) throws {
        let folder = try TemporaryDirectory("config-as-code")
        defer { folder.remove() }
        try TestApp.with { app in
            try app.publish("app", Fixtures.designExample)
            try body(Setup(app: app, folder: folder))
        }
    }

    /// The lines of `output` that print one change.
    private static func changeLines(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  /") }
    }

    @Test("export, edit one title, apply --dry-run shows exactly that change, apply publishes one version, once")
    func roundTrip() throws {
        try Self.with { setup in
            let export = try setup.run("export")
            #expect(export.status == 0, "\(export.output)")
            #expect(export.output.split(separator: "\n").count == 2)
            let exported = try Data(contentsOf: setup.file("app"))
            #expect(exported.last == UInt8(ascii: "\n"))
            #expect(try Data(contentsOf: setup.file("ios-phone")).count > 0)
            let again = try setup.run("export")
            #expect(again.status == 0)
            #expect(again.output.contains("app.json: version 1, unchanged"))
            #expect(try Data(contentsOf: setup.file("app")) == exported)

            let text = String(decoding: exported, as: UTF8.self)
            #expect(text.components(separatedBy: "\"Search\"").count == 2)
            try Data(text.replacingOccurrences(of: "\"Search\"", with: "\"Find\"").utf8).write(to: setup.file("app"))

            let plan = try setup.run("apply", "--dry-run")
            #expect(plan.status == 2, "\(plan.output)")
            #expect(Self.changeLines(plan.output) == ["  /tabs/1/title/default: \"Search\" → \"Find\""])
            #expect(plan.output.contains("app.json: 1 change against version 1"))
            #expect(plan.output.contains("tabs changed: search"))
            #expect(plan.output.contains("ios-phone.json: equal to version 1"))
            #expect(try setup.versions("app") == [1])

            let apply = try setup.run("apply", "--note", "from git")
            #expect(apply.status == 0, "\(apply.output)")
            #expect(apply.output.contains("app.json: published version 2 (1 change)"))
            #expect(try setup.versions("app") == [2, 1])
            #expect(try setup.versions("ios-phone") == [1])
            let live = try setup.app.request("GET", "/v1/clients/app/config/versions/2", headers: TestApp.admin)
            #expect((try live.json() as? [String: Any])?["note"] as? String == "from git")

            let audit = try setup.app.request("GET", "/v1/audit?client=app", headers: TestApp.admin)
            let entries = (try audit.json() as? [String: Any])?["entries"] as? [[String: Any]] ?? []
            #expect(entries.count == 2, "the fixture's publish and the apply; the dry run left none")
            #expect(entries.last?["version"] as? Int == 2 && entries.last?["previousVersion"] as? Int == 1)
            #expect(entries.last?["tabsChanged"] as? [String] == ["search"])
            #expect(entries.last?["note"] as? String == "from git" && entries.last?["key"] as? String == "admin-token")

            let second = try setup.run("apply")
            #expect(second.status == 0, "\(second.output)")
            #expect(second.output.contains("app.json: equal to version 2"))
            #expect(second.output.contains("0 published, 0 failed"))
            #expect(try setup.versions("app") == [2, 1])

            let edited = try Data(contentsOf: setup.file("app"))
            #expect(try setup.run("export").status == 0)
            #expect(try Data(contentsOf: setup.file("app")) == edited)
        }
    }

    @Test("one refused file publishes nothing: exit 1, each problem printed with the file's name")
    func refusedFile() throws {
        try Self.with { setup in
            #expect(try setup.run("export").status == 0)
            let moved = Fixtures.config([Fixtures.tab("search"), Fixtures.tab("home")])
            try JSONSerialization.data(withJSONObject: moved).write(to: setup.file("app"))
            let invalid: [String: Any] = ["tabs": [Fixtures.tab("home")], "maxVisibleTabs": 42]
            try JSONSerialization.data(withJSONObject: invalid).write(to: setup.file("ios-phone"))
            try Data("{}".utf8).write(to: setup.file("Not_A_Client"))

            for arguments in [[], ["--dry-run"]] {
                let (status, output) = try ServerProcess.run(
                    ["apply", setup.configs.path] + setup.server + arguments)
                #expect(status == 1, "\(output)")
                #expect(output.contains("ios-phone.json: /tabs: "))
                #expect(output.contains("ios-phone.json: /maxVisibleTabs: "))
                #expect(output.contains("Not_A_Client.json: not <client>.json with a client id"))
                #expect(output.contains("2 files refused; nothing published"))
                let printsDiff = arguments == ["--dry-run"]
                #expect(output.contains("tabs removed: library, favorites, profile, settings") == printsDiff)
            }
            #expect(try setup.versions("app") == [1])
            #expect(try setup.versions("ios-phone") == [1])
        }
    }

    @Test("a file for a new client creates it; a live client without a file is reported and kept")
    func newClientAndMissingFile() throws {
        try Self.with { setup in
            try FileManager.default.createDirectory(at: setup.configs, withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: Fixtures.designExample).write(to: setup.file("android"))
            let plan = try setup.run("apply", "--dry-run")
            #expect(plan.status == 2, "\(plan.output)")
            #expect(plan.output.contains("android.json: 9 changes against a new client"))
            #expect(plan.output.contains("tabs added: home, search, library, favorites, profile, settings"))
            #expect(plan.output.contains("app: live (version 1) but no file in"))
            #expect(plan.output.contains("ios-phone: live (version 1) but no file in"))

            let apply = try setup.run("apply")
            #expect(apply.status == 0, "\(apply.output)")
            #expect(apply.output.contains("android.json: published version 1"))
            #expect(try setup.versions("android") == [1])
            #expect(try setup.versions("app") == [1])
            #expect(try setup.versions("ios-phone") == [1])
        }
    }

    @Test("exit codes: 64 without a token, a directory or a usable URL; 1 for a wrong token or no server")
    func exitCodes() throws {
        try Self.with { setup in
            let url = "http://127.0.0.1:\(setup.app.port)"
            let noToken = try ServerProcess.run(["export", setup.configs.path, "--url", url], environment: [:])
            #expect(noToken.0 == 64, "\(noToken.1)")
            #expect(noToken.1.contains("TABCONFIG_ADMIN_TOKEN"))
            let fromEnvironment = try ServerProcess.run(
                ["export", setup.configs.path, "--url", url],
                environment: ["TABCONFIG_ADMIN_TOKEN": TestApp.adminToken])
            #expect(fromEnvironment.0 == 0, "\(fromEnvironment.1)")
            #expect(try ServerProcess.run(["apply", setup.folder.path("missing")] + setup.server).0 == 64)
            let badURL = try ServerProcess.run(["apply", setup.configs.path, "--url", "ftp://x", "--token", "t"])
            #expect(badURL.0 == 64)

            let wrongToken = try ServerProcess.run(["apply", setup.configs.path, "--url", url, "--token", "nope"])
            #expect(wrongToken.0 == 1)
            #expect(wrongToken.1.contains("401"))
            let closed = try ServerProcess.run(
                ["export", setup.configs.path, "--url", "http://127.0.0.1:1", "--token", "t"])
            #expect(closed.0 == 1)
            #expect(closed.1.contains("cannot reach http://127.0.0.1:1"))
        }
    }
}
