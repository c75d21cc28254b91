import Dispatch
import Foundation
import MicroHTTPTesting
import Synchronization
import TabBarModel
import Testing

/// The tabs a user opens, over HTTP: `…/users/{user}/dynamic-tabs`, and how they join the user's tab bar and tab
/// order.
@Suite("dynamic tabs over HTTP")
struct DynamicTabEndpointTests {
    static var templates: [[String: Any]] { [
        [
            "id": "document", "title": ["default": "Document", "localized": ["fr": "Document FR"]],
            "icon": ["image": "doc.png"],
            "destination": ["type": "viewController", "name": "DocumentViewController"],
            "parameters": ["docId"], "maxOpen": 3,
        ],
        [
            "id": "web", "title": ["default": "Web"], "destination": ["type": "url", "url": "https://example.com"],
            "parameters": ["url"],
        ],
    ] }

    static func config(templates: [[String: Any]]? = nil) -> [String: Any] {
        var config = Fixtures.designExample
        config["tabTemplates"] = templates ?? Self.templates
        return config
    }

    static let tabs = "/v1/clients/ios-phone/users/alice/dynamic-tabs"

    static func open(
        _ app: TestApp, _ template: String, _ name: String, parameters: [String: String] = [:], title: String? = nil,
        headers: [(String, String)] = [], user: String = "alice"
    ) throws -> TestResponse {
        var body: [String: Any] = ["template": template, "name": name, "parameters": parameters]
        if let title { body["title"] = title }
        return try app.request("POST", "/v1/clients/ios-phone/users/\(user)/dynamic-tabs", headers: headers, json: body)
    }

    @Test("open, open again, list, order, close: 201, 200 with the same tab, the open order, the tab bar, 204")
    func roundTrip() throws {
        try TestApp.with { app in
            try app.publish("ios-phone", Self.config())
            let empty = try app.request("GET", Self.tabs)
            #expect(try empty.json() as? NSDictionary == ["dynamicTabs": [], "revision": 0])

            let opened = try Self.open(app, "document", "q3-report", parameters: ["docId": "42"], title: "Q3 report")
            #expect(opened.status == 201)
            #expect(opened.headers["Location"] == "\(Self.tabs)/q3-report")
            #expect(opened.headers["ETag"] == "\"r1:alice\"")
            let tab: NSDictionary = [
                "id": "document:q3-report", "template": "document", "name": "q3-report", "parameters": ["docId": "42"],
                "title": "Q3 report",
            ]
            #expect(try opened.json() as? NSDictionary == ["tab": tab, "revision": 1])

            let again = try Self.open(app, "web", "q3-report", parameters: ["url": "https://other.example"])
            #expect(again.status == 200, "the name is open: no duplicate")
            #expect(try again.json() as? NSDictionary == ["tab": tab, "revision": 1])
            #expect(try Self.open(app, "web", "news", parameters: ["url": "https://news.example"]).status == 201)

            let listed = try #require(try app.request("GET", Self.tabs).json() as? [String: Any])
            #expect((listed["dynamicTabs"] as? [[String: Any]])?.map { $0["id"] as? String } == ["document:q3-report", "web:news"])
            #expect(listed["revision"] as? Int == 2)

            let bar = try app.userTabs("ios-phone", "alice", query: "?locale=fr")
            #expect(bar.tabs.map(\.id).suffix(2) == ["document:q3-report", "web:news"])
            #expect(bar.tabs.last?.title == "Web" && bar.tabs.last?.destination.parameters == ["url": "https://news.example"])
            #expect(bar.tabs.last?.dynamic == ResolvedTab.Dynamic(template: "web", name: "news"))

            let everyTab = ["web:news", "home", "search", "library", "favorites", "profile", "settings", "document:q3-report"]
            let ordered = try app.saveOrder("ios-phone", "alice", order: everyTab)
            #expect(ordered.status == 200)
            #expect((try ordered.json() as? [String: Any])?["ignored"] as? [String] == [])
            let reordered = try app.userTabs("ios-phone", "alice").tabs.map(\.id)
            #expect(reordered == ["home"] + everyTab.filter { $0 != "home" }, "home is locked to its slot")

            let closed = try app.request("DELETE", "\(Self.tabs)/web:news".replacingOccurrences(of: "web:", with: ""))
            #expect(closed.status == 204)
            #expect(closed.headers["ETag"] == "\"r4:alice\"")
            #expect(try app.request("DELETE", "\(Self.tabs)/news").status == 404)
            let order = try app.request("GET", "/v1/clients/ios-phone/users/alice/tab-order")
            #expect((try order.json() as? [String: Any])?["order"] as? [String] == everyTab.filter { $0 != "web:news" })
            #expect(!(try app.userTabs("ios-phone", "alice").tabs.map(\.id).contains("web:news")))
        }
    }

    @Test("past maxOpen 409; unknown template, undeclared parameter, bad name 422 with pointers; nothing stored")
    func refusals() throws {
        try TestApp.with { app in
            try app.publish("ios-phone", Self.config())
            for name in ["a", "b", "c"] {
                #expect(try Self.open(app, "document", name).status == 201)
            }
            let tooMany = try Self.open(app, "document", "d")
            #expect(tooMany.status == 409)
            #expect((try tooMany.json() as? [String: Any])?["type"] as? String == "urn:tabconfig:problem:too-many-open-tabs")

            let unknown = try Self.open(app, "documents", "e")
            #expect(unknown.status == 422)
            #expect(try unknown.problems().map(\.pointer) == ["/template"])
            #expect(try unknown.problems().first?.message.contains(#"did you mean "document"?"#) == true)
            let undeclared = try Self.open(app, "web", "e", parameters: ["url": "https://x.example", "zoom": "2"])
            #expect(try undeclared.problems().map(\.pointer) == ["/parameters/zoom"])
            let badName = try Self.open(app, "web", "a/b")
            #expect(badName.status == 422)
            #expect(try badName.problems().map(\.pointer) == ["/name"])
            let missing = try app.request("POST", Self.tabs, json: ["name": "x", "extra": 1])
            #expect(try missing.problems().map(\.pointer).sorted() == ["/extra", "/template"])
            let malformed = try app.request("POST", Self.tabs, headers: TestApp.json, body: Data("{".utf8))
            #expect(malformed.status == 400)
            let text = try app.request(
                "POST", Self.tabs, headers: [("Content-Type", "text/plain")], body: Data("{}".utf8))
            #expect(text.status == 415)
            let badPath = try app.request("DELETE", "\(Self.tabs)/a%20b")
            #expect(badPath.status == 400, "\(badPath.status) \(badPath.text)")
            #expect(try app.request("GET", "/v1/clients/nobody/users/alice/dynamic-tabs").status == 404)

            let listed = try #require(try app.request("GET", Self.tabs).json() as? [String: Any])
            #expect((listed["dynamicTabs"] as? [Any])?.count == 3)
            #expect(listed["revision"] as? Int == 3)
        }
    }

    @Test("If-Match: a stale ETag is 412 for opening and closing, the current one writes; GET answers 304")
    func conditionalWrites() throws {
        try TestApp.with { app in
            try app.publish("ios-phone", Self.config())
            #expect(try app.saveOrder("ios-phone", "alice", order: ["search"]).status == 200)
            let stale = try Self.open(app, "document", "a", headers: [("If-Match", "\"r0:alice\"")])
            #expect(stale.status == 412)
            let current = try Self.open(app, "document", "a", headers: [("If-Match", "\"r1:alice\"")])
            #expect(current.status == 201)
            let etag = try #require(current.headers["ETag"])
            let staleClose = try app.request("DELETE", "\(Self.tabs)/a", headers: [("If-Match", "\"r1:alice\"")])
            #expect(staleClose.status == 412)
            #expect(try app.request("GET", Self.tabs, headers: [("If-None-Match", etag)]).status == 304)
            let orderETag = try app.request("GET", "/v1/clients/ios-phone/users/alice/tab-order").headers["ETag"]
            #expect(orderETag == etag, "one revision covers the order and the open tabs")
            #expect(try app.request("DELETE", "\(Self.tabs)/a", headers: [("If-Match", etag)]).status == 204)
        }
    }

    @Test("a tab order saved or reset keeps the open tabs")
    func orderWritesKeepOpenTabs() throws {
        try TestApp.with { app in
            try app.publish("ios-phone", Self.config())
            #expect(try Self.open(app, "document", "a").status == 201)
            #expect(try app.saveOrder("ios-phone", "alice", order: ["profile"], hidden: ["document:a"]).status == 200)
            let listed = try #require(try app.request("GET", Self.tabs).json() as? [String: Any])
            #expect((listed["dynamicTabs"] as? [Any])?.count == 1)
            #expect(try app.userTabs("ios-phone", "alice").customization?.hidden == ["document:a"])

            #expect(try app.request("DELETE", "/v1/clients/ios-phone/users/alice/tab-order").status == 204)
            let order = try app.request("GET", "/v1/clients/ios-phone/users/alice/tab-order")
            #expect(try order.json() as? NSDictionary == ["order": [], "hidden": [], "revision": 3])
            #expect(try app.userTabs("ios-phone", "alice").tabs.last?.id == "document:a")
        }
    }

    @Test("a template removed from the config: its tabs are dropped from the bar, kept, and back with the template")
    func removedTemplate() throws {
        try TestApp.with { app in
            try app.publish("ios-phone", Self.config())
            #expect(try Self.open(app, "document", "a").status == 201)
            #expect(try Self.open(app, "web", "w").status == 201)
            #expect(try app.saveOrder("ios-phone", "alice", order: ["document:a", "web:w", "home"]).status == 200)
            try app.publish("ios-phone", Self.config(templates: [Self.templates[1]]))
            let without = try app.userTabs("ios-phone", "alice")
            #expect(!without.tabs.map(\.id).contains("document:a"))
            #expect(without.customization?.dropped == ["document:a"])
            #expect(try Self.open(app, "document", "b").status == 422, "no such template now")
            // A tab order written meanwhile keeps the absent tab's place.
            #expect(try app.saveOrder("ios-phone", "alice", order: ["web:w", "home"]).status == 200)
            try app.publish("ios-phone", Self.config())
            let order = try app.request("GET", "/v1/clients/ios-phone/users/alice/tab-order")
            #expect((try order.json() as? [String: Any])?["order"] as? [String] == ["document:a", "web:w", "home"])
            let back = try app.userTabs("ios-phone", "alice")
            #expect(back.tabs.map(\.id).suffix(2) == ["document:a", "web:w"])
            #expect(back.customization?.dropped == [])
        }
    }

    @Test("opens from several connections at once beside tab-order saves without If-Match: every acknowledged open kept")
    func concurrentOpens() throws {
        try TestApp.with { app in
            var config = Self.config()
            var web = Self.templates[1]
            web["maxOpen"] = 50
            config["tabTemplates"] = [web]
            try app.publish("ios-phone", config)
            let acknowledged = Mutex<[String]>([])
            let conflicts = Atomic<Int>(0)
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 5) { thread in
                for index in 0..<8 {
                    do {
                        if thread == 4 {
                            let saved = try app.saveOrder("ios-phone", "alice", order: ["home", "search"])
                            if saved.status != 200 { failures.withLock { $0.append("order \(saved.status)") } }
                            continue
                        }
                        let name = "t\(thread)-\(index)"
                        let response = try Self.open(app, "web", name)
                        switch response.status {
                        case 201: acknowledged.withLock { $0.append("web:" + name) }
                        case 409: conflicts.add(1, ordering: .relaxed)
                        default: failures.withLock { $0.append("open \(response.status)") }
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let listed = try #require(try app.request("GET", Self.tabs).json() as? [String: Any])
            let open = Set((listed["dynamicTabs"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? [])
            #expect(open == Set(acknowledged.withLock { $0 }), "\(conflicts.load(ordering: .relaxed)) answered 409")
            #expect(acknowledged.withLock { $0.count } + conflicts.load(ordering: .relaxed) == 32)
        }
    }
}
