import Foundation
import MicroHTTPTesting
import TabBarAPI
import Testing
import TestSupport

@Suite("HTTP behaviour")
struct ProtocolTests {
    @Test("two requests travel over one kept-alive connection")
    func keepAlive() throws {
        try TestApp.with { app in
            let client = try TestClient(port: app.port)
            defer { client.close() }
            let first = try client.send("GET", "/v1/clients/ios-phone/tabs")
            let portAfterFirst = client.localPort
            let second = try client.send("GET", "/healthz")
            #expect(first.status == 200)
            #expect(second.status == 200)
            #expect(client.localPort == portAfterFirst)
            #expect(!client.isClosedByPeer)
        }
    }

    @Test("a 2 MiB body is refused with 413 problem+json and nothing is stored")
    func bodyTooLarge() throws {
        try TestApp.with { app in
            let body = Data(repeating: UInt8(ascii: " "), count: 2 * 1024 * 1024)
            let response = try app.request(
                "PUT", "/v1/clients/ios-phone/users/big/tab-order", headers: TestApp.json, body: body)
            #expect(response.status == 413)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            let order = try app.request("GET", "/v1/clients/ios-phone/users/big/tab-order")
            #expect((try order.json() as? [String: Any])?["revision"] as? Int == 0)
        }
    }

    @Test("an unsupported method is 405 with Allow; an unknown path 404")
    func methodNotAllowed() throws {
        try TestApp.with { app in
            let response = try app.request("POST", "/v1/clients/ios-phone/tabs")
            #expect(response.status == 405)
            #expect(response.headers["Allow"]?.contains("GET") == true)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            let missing = try app.request("GET", "/v2/nothing")
            #expect(missing.status == 404)
            #expect(missing.headers["Content-Type"] == "application/problem+json")
        }
    }

    @Test("probes and the OpenAPI document")
    func probes() throws {
        try TestApp.with { app in
            let health = try app.request("GET", "/healthz")
            #expect(health.status == 200)
            #expect(try health.json() as? NSDictionary == ["status": "ok", "version": BuildInfo.version])
            let ready = try app.request("GET", "/readyz")
            #expect(ready.status == 200)
            #expect(try ready.json() as? NSDictionary == ["status": "ready"])
            let spec = try app.request("GET", "/openapi.yaml")
            #expect(spec.status == 200)
            #expect(spec.headers["Content-Type"] == "application/yaml")
            #expect(spec.text.hasPrefix("openapi: 3.1"))
            let root = Repository.url("openapi.yaml")
            #expect(spec.body == (try Data(contentsOf: root)))
        }
    }
}
