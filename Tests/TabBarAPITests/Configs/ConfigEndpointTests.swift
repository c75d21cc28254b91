import Foundation
import MicroHTTPTesting
import TabBarModel
import Testing

@Suite("admin config endpoints")
struct ConfigEndpointTests {
    @Test("admin endpoints need the bearer token")
    func authorization() throws {
        try TestApp.with { app in
            let missing = try app.request("GET", "/v1/clients")
            #expect(missing.status == 401)
            #expect(missing.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
            #expect(missing.headers["Content-Type"] == "application/problem+json")
            let wrong = try app.request("GET", "/v1/clients", headers: [("Authorization", "Bearer nope")])
            #expect(wrong.status == 401)
            let basic = try app.request("GET", "/v1/clients/ios-phone/config", headers: [("Authorization", "Basic eDp5")])
            #expect(basic.status == 401)
            let put = try app.request("PUT", "/v1/clients/x/config", json: Fixtures.designExample)
            #expect(put.status == 401)
            #expect(try app.request("DELETE", "/v1/clients/ios-phone/config").status == 401)
        }
    }

    @Test("list, read, publish and delete")
    func lifecycle() throws {
        try TestApp.with { app in
            let list = try app.request("GET", "/v1/clients", headers: TestApp.admin)
            #expect(list.status == 200)
            let clients = try #require((try list.json() as? [String: Any])?["clients"] as? [[String: Any]])
            #expect(clients.map { $0["client"] as? String } == ["ios-phone"])
            #expect(clients.first?["version"] as? Int == 1)

            let read = try app.request("GET", "/v1/clients/ios-phone/config", headers: TestApp.admin)
            #expect(read.status == 200)
            let envelope = try #require(try read.json() as? [String: Any])
            #expect(envelope["version"] as? Int == 1)
            #expect(envelope["publishedAt"] is String)
            let config = try JSONSerialization.data(withJSONObject: envelope["config"] as Any)
            #expect(try TabBarConfig.decode(json: config).get() == TabBarConfig.sample)

            let published = try app.request("PUT", "/v1/clients/ios-phone/config", headers: TestApp.admin, json: Fixtures.designExample)
            #expect(published.status == 201)
            #expect((try published.json() as? [String: Any])?["version"] as? Int == 2)
            let bar = try app.request("GET", "/v1/clients/ios-phone/tabs")
            #expect(try JSONDecoder().decode(ResolvedTabBar.self, from: bar.body).version == 2)

            #expect(try app.request("DELETE", "/v1/clients/ios-phone/config", headers: TestApp.admin).status == 204)
            #expect(try app.request("GET", "/v1/clients/ios-phone/tabs").status == 404)
            #expect(try app.request("GET", "/v1/clients/ios-phone/config", headers: TestApp.admin).status == 404)
            #expect(try app.request("DELETE", "/v1/clients/ios-phone/config", headers: TestApp.admin).status == 404)
        }
    }

    @Test("deleting a client deletes its users' customizations")
    func deleteCascades() throws {
        try TestApp.with { app in
            try app.publish("app", Fixtures.designExample)
            _ = try app.saveOrder("app", "u", order: ["search"])
            #expect(try app.request("DELETE", "/v1/clients/app/config", headers: TestApp.admin).status == 204)
            try app.publish("app", Fixtures.designExample)
            let order = try app.request("GET", "/v1/clients/app/users/u/tab-order")
            #expect((try order.json() as? [String: Any])?["order"] as? [String] == [])
        }
    }

    @Test("an invalid document is 422 listing every problem, and nothing is published")
    func invalidDocument() throws {
        try TestApp.with { app in
            let document: [String: Any] = [
                "tabs": [
                    ["id": "Home!", "title": ["default": ""], "destination": ["type": "viewController"]],
                    Fixtures.tab("b"),
                ],
                "maxVisibleTabs": 42,
                "colour": "typo",
            ]
            let response = try app.request("PUT", "/v1/clients/ios-phone/config", headers: TestApp.admin, json: document)
            #expect(response.status == 422)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            let problem = try #require(try response.json() as? [String: Any])
            let pointers = Set(((problem["errors"] as? [[String: Any]]) ?? []).compactMap { $0["pointer"] as? String })
            #expect(pointers.isSuperset(of: ["/tabs/0/id", "/tabs/0/title/default", "/maxVisibleTabs", "/colour"]))
            let read = try app.request("GET", "/v1/clients/ios-phone/config", headers: TestApp.admin)
            #expect((try read.json() as? [String: Any])?["version"] as? Int == 1)
        }
    }

    @Test("malformed JSON is 400 and a non-JSON content type 415")
    func malformed() throws {
        try TestApp.with { app in
            let malformed = try app.request(
                "PUT", "/v1/clients/ios-phone/config", headers: TestApp.adminJSON, body: Data("{\"tabs\": ".utf8))
            #expect(malformed.status == 400)
            #expect(malformed.headers["Content-Type"] == "application/problem+json")
            let form = try app.request(
                "PUT", "/v1/clients/ios-phone/config",
                headers: TestApp.admin + [("Content-Type", "application/x-www-form-urlencoded")], body: Data("a=b".utf8))
            #expect(form.status == 415)
        }
    }
}
