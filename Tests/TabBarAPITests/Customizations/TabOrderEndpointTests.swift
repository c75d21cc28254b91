import Foundation
import MicroHTTPTesting
import TabBarModel
import Testing

@Suite("tab-order endpoints")
struct TabOrderEndpointTests {
    @Test("PUT, GET, DELETE round trip with revisions")
    func roundTrip() throws {
        try TestApp.with { app in
            let path = "/v1/clients/ios-phone/users/alice/tab-order"
            let empty = try app.request("GET", path)
            #expect(empty.status == 200)
            #expect(try empty.json() as? NSDictionary == ["order": [], "hidden": [], "revision": 0])

            let saved = try app.saveOrder("ios-phone", "alice", order: ["profile", "search", "gone"], hidden: ["settings"])
            #expect(saved.status == 200)
            let body = try #require(try saved.json() as? [String: Any])
            #expect(body["revision"] as? Int == 1)
            #expect(body["order"] as? [String] == ["profile", "search"])
            #expect(body["hidden"] as? [String] == ["settings"])
            #expect(body["ignored"] as? [String] == ["gone"])

            let again = try app.saveOrder("ios-phone", "alice", order: ["search"])
            #expect((try again.json() as? [String: Any])?["revision"] as? Int == 2)

            let read = try app.request("GET", path)
            #expect(try read.json() as? NSDictionary == ["order": ["search"], "hidden": [], "revision": 2])

            #expect(try app.request("DELETE", path).status == 204)
            #expect(try app.request("DELETE", path).status == 204)
            let reset = try app.request("GET", path)
            #expect((try reset.json() as? [String: Any])?["order"] as? [String] == [])
        }
    }

    @Test(
        "after a reset the user's tab bar reads as never saved, on configs with and without templates",
        arguments: [true, false])
    func resetReadsAsNeverSaved(templates: Bool) throws {
        try TestApp.with { app in
            if !templates {
                try app.publish("ios-phone", Fixtures.designExample)
            }
            let envelope = try #require(
                try app.request("GET", "/v1/clients/ios-phone/config", headers: TestApp.admin).json() as? [String: Any])
            let config = try #require(envelope["config"] as? [String: Any])
            #expect(((config["tabTemplates"] as? [Any]) ?? []).isEmpty == !templates)
            let untouched = try app.userTabs("ios-phone", "dave")
            #expect(try app.saveOrder("ios-phone", "carol", order: ["settings", "profile"]).status == 200)
            #expect(try app.request("DELETE", "/v1/clients/ios-phone/users/carol/tab-order").status == 204)
            let reset = try app.userTabs("ios-phone", "carol")
            #expect(reset.tabs.map(\.id) == untouched.tabs.map(\.id))
            #expect(reset.customization?.source == "default")
            #expect(reset.customization?.added == [])
            #expect(reset.customization?.hidden == [])
            #expect(reset.customization?.dropped == [])
            let revision = try #require(try app.request(
                "GET", "/v1/clients/ios-phone/users/carol/tab-order").json() as? [String: Any])["revision"] as? Int
            #expect(reset.customization?.revision == UInt64(revision ?? -1))
        }
    }

    @Test("duplicates and hiding a non-hideable tab are 422 with pointers")
    func invalidOrders() throws {
        try TestApp.with { app in
            let duplicate = try app.saveOrder("ios-phone", "bob", order: ["search", "profile", "search"])
            #expect(duplicate.status == 422)
            #expect(duplicate.headers["Content-Type"] == "application/problem+json")
            let problem = try #require(try duplicate.json() as? [String: Any])
            let errors = try #require(problem["errors"] as? [[String: Any]])
            #expect(errors.contains { ($0["pointer"] as? String) == "/order/2" })

            let hidden = try app.saveOrder("ios-phone", "bob", order: [], hidden: ["home"])
            #expect(hidden.status == 422)

            let tooMany = try app.saveOrder("ios-phone", "bob", order: (0..<51).map { "t\($0)" })
            #expect(tooMany.status == 422)

            let stored = try app.request("GET", "/v1/clients/ios-phone/users/bob/tab-order")
            #expect((try stored.json() as? [String: Any])?["revision"] as? Int == 0)
        }
    }

    @Test("an unknown key close to a known one is a 422 whose problem suggests the known key")
    func unknownKeySuggestions() throws {
        try TestApp.with { app in
            let order = try app.request(
                "PUT", "/v1/clients/ios-phone/users/bob/tab-order", json: ["order": ["search"], "hiden": []])
            #expect(order.status == 422)
            #expect(
                try order.problems() == [
                    ValidationProblem(pointer: "/hiden", message: #"unknown field "hiden", did you mean "hidden"?"#)
                ])
            var config = Fixtures.designExample
            config["maxVisibletabs"] = 4
            let publish = try app.request("PUT", "/v1/clients/ios-phone/config", headers: TestApp.admin, json: config)
            #expect(publish.status == 422)
            #expect(
                try publish.problems() == [
                    ValidationProblem(
                        pointer: "/maxVisibletabs", message: #"unknown field "maxVisibletabs", did you mean "maxVisibleTabs"?"#)
                ])
        }
    }

    @Test("malformed JSON is 400, a wrong content type 415, an unknown client 404")
    func malformedBodies() throws {
        try TestApp.with { app in
            let path = "/v1/clients/ios-phone/users/carol/tab-order"
            let malformed = try app.request("PUT", path, headers: TestApp.json, body: Data("{\"order\": [".utf8))
            #expect(malformed.status == 400)
            #expect(malformed.headers["Content-Type"] == "application/problem+json")
            let wrongType = try app.request(
                "PUT", path, headers: [("Content-Type", "text/plain")], body: Data("{\"order\":[]}".utf8))
            #expect(wrongType.status == 415)
            let unknown = try app.request("PUT", "/v1/clients/nope/users/carol/tab-order", json: ["order": []])
            #expect(unknown.status == 404)
            let empty = try app.request("PUT", path, headers: TestApp.json, body: Data())
            #expect(empty.status == 400)
        }
    }

    @Test("a config with userCustomizable false answers 409")
    func customizationDisabled() throws {
        try TestApp.with { app in
            try app.publish("locked-app", Fixtures.config([Fixtures.tab("a"), Fixtures.tab("b")], customizable: false))
            let response = try app.saveOrder("locked-app", "dave", order: ["b", "a"])
            #expect(response.status == 409)
            #expect(response.headers["Content-Type"] == "application/problem+json")
        }
    }
}
