import Foundation
import MicroHTTPTesting
import TabBarModel
import Testing
import TestSupport

@Suite("durability across restarts")
struct PersistenceTests {
    @Test("configs and customizations survive a restart of the server")
    func restart() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        try TestApp.with(dataDirectory: directory) { app in
            try app.publish("app", Fixtures.designExample)
            _ = try app.saveOrder("app", "alice", order: ["profile", "favorites", "library", "search", "settings", "home"])
            _ = try app.saveOrder("ios-phone", "bob", order: ["search"], hidden: ["settings"])
            _ = try app.saveOrder("ios-phone", "bob", order: ["library"], hidden: [])
        }
        try TestApp.with(dataDirectory: directory) { app in
            let alice = try app.userTabs("app", "alice")
            #expect(alice.version == 1)
            #expect(alice.customization?.revision == 1)
            #expect(alice.tabs.map(\.id) == ["home", "profile", "favorites", "library", "search", "settings"])
            let bob = try app.request("GET", "/v1/clients/ios-phone/users/bob/tab-order")
            #expect(try bob.json() as? NSDictionary == ["order": ["library"], "hidden": [], "revision": 2])
            let clients = try app.request("GET", "/v1/clients", headers: TestApp.admin)
            let ids = ((try clients.json() as? [String: Any])?["clients"] as? [[String: Any]])?.compactMap { $0["client"] as? String }
            #expect(ids == ["app", "ios-phone"])
        }
    }

    @Test("a saved record that cannot be decoded is served as the default order")
    func corruptSavedRecord() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        try TestApp.with(dataDirectory: directory) { app in
            _ = try app.saveOrder("ios-phone", "eve", order: ["search"])
        }
        try JournalWriter.appendUndecodableRecord(
            to: directory.appendingPathComponent("customizations.journal"), client: "ios-phone", user: "eve", revision: 2)
        try TestApp.with(dataDirectory: directory) { app in
            let bar = try app.userTabs("ios-phone", "eve")
            #expect(bar.tabs.map(\.id) == TabBarConfig.sample.tabs.map(\.id))
            #expect(bar.customization?.source == "default")
            let order = try app.request("GET", "/v1/clients/ios-phone/users/eve/tab-order")
            #expect(order.status == 200)
            let saved = try app.saveOrder("ios-phone", "eve", order: ["profile"])
            #expect((try saved.json() as? [String: Any])?["revision"] as? Int == 3)
        }
    }
}
