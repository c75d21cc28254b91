import Foundation
import MicroHTTPTesting
import Testing
import TestSupport

/// `tabconfig builds register` and `tabconfig builds list`: the real executable against the real server.
@Suite("tabconfig builds")
struct BuildCommandTests {
    @Test("register writes a manifest (with --build-number), says when it is up to date, and list shows it")
    func registerAndList() throws {
        let folder = try TemporaryDirectory("builds-cli")
        defer { folder.remove() }
        let manifest = folder.child("manifest.json")
        try Data(#"{"viewControllers": ["HomeViewController", "ShopViewController"], "storyboards": ["Main"]}"#.utf8)
            .write(to: manifest)
        try TestApp.with { app in
            let server = ["--url", "http://127.0.0.1:\(app.port)", "--token", TestApp.adminToken]
            let register = ["builds", "register"] + server + ["--client", "shop", "--platform", "ios"]
            let first: (status: Int32, output: String) = try ServerProcess.run(
                register + ["--app-version", "5.2", "--build-number", "5200", manifest.path])
            #expect(first.status == 0, "\(first.output)")
            #expect(first.output.contains("shop ios 5.2.0: registered, 3 names"), "\(first.output)")
            let again: (status: Int32, output: String) = try ServerProcess.run(
                register + ["--app-version", "5.2.0", "--build-number", "5200", manifest.path])
            #expect(again.output.contains("shop ios 5.2.0: up to date, 3 names"), "\(again.output)")

            let list: (status: Int32, output: String) = try ServerProcess.run(["builds", "list"] + server + ["--client", "shop"])
            #expect(list.status == 0)
            #expect(list.output.contains("ios  5.2.0  build 5200  3 names  registered 20"), "\(list.output)")
            let tabs = try app.request("GET", "/v1/clients/shop/builds/ios/5.2.0", headers: TestApp.admin)
            #expect(tabs.status == 200)
        }
    }

    @Test("a manifest the service refuses: exit 1 with each problem; a bad version: exit 64; unreadable file: exit 2")
    func refusals() throws {
        let folder = try TemporaryDirectory("builds-cli-bad")
        defer { folder.remove() }
        let manifest = folder.child("manifest.json")
        try Data(#"{"viewControllers": ["9Shop"]}"#.utf8).write(to: manifest)
        try TestApp.with { app in
            let server = ["--url", "http://127.0.0.1:\(app.port)", "--token", TestApp.adminToken]
            let register = ["builds", "register"] + server + ["--client", "shop", "--platform", "ios"]
            let refused: (status: Int32, output: String) = try ServerProcess.run(register + ["--app-version", "5.2.0", manifest.path])
            #expect(refused.status == 1)
            #expect(refused.output.contains("/viewControllers/0"), "\(refused.output)")
            let usage: (status: Int32, output: String) = try ServerProcess.run(register + ["--app-version", "latest", manifest.path])
            #expect(usage.status == 64, "\(usage.output)")
            let missing: (status: Int32, output: String) = try ServerProcess.run(register + ["--app-version", "5.2.0", folder.child("none.json").path])
            #expect(missing.status == 2, "\(missing.output)")
        }
    }
}
