import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

/// A router's head handlers, through the real server: only the requests of their own route reach them.
@Suite("Router: answers from the request head")
struct RouterHeadTests {
    private static func router() -> Router {
        var router = Router()
        @Sendable func body(_ text: String) -> Response { Response(status: 200, body: Data(text.utf8)) }
        router.add(
            "GET", "/v1/clients/{client}/tabs", head: { _, parameters in body("head tabs \(parameters)") }
        ) { request in body("handler tabs \(request.pathParameters)") }
        router.add(
            "GET", "/v1/clients/{client}/users/{user}/tabs",
            head: { head, parameters in head.query("skip") == nil ? body("head user \(parameters)") : nil }
        ) { request in body("handler user \(request.pathParameters)") }
        router.add("GET", "/v1/clients/{client}/users/{user}/tab-order") { _ in body("handler order") }
        router.add("PUT", "/v1/clients/{client}/users/{user}/tabs") { _ in body("handler put") }
        return router
    }

    @Test("a route's head handler answers its GETs and HEADs; other paths, and a nil answer, go to the handlers")
    func headHandlersByRoute() throws {
        try withServer(Self.router()) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            #expect(try client.send("GET", "/v1/clients/ios-phone/tabs").text == "head tabs [client: ios-phone]")
            #expect(try client.send("GET", "/v1/clients/caf%C3%A9/tabs").text == "head tabs [client: caf\u{E9}]")
            #expect(
                try client.send("GET", "/v1/clients/ios-phone/users/alice/tabs").text
                    == "head user [client: ios-phone, user: alice]")
            #expect(
                try client.send("GET", "/v1/clients/ios-phone/users/alice/tabs?skip").text
                    == "handler user [client: ios-phone, user: alice]")
            #expect(try client.send("HEAD", "/v1/clients/ios-phone/tabs").status == 200)
            #expect(try client.send("GET", "/v1/clients/ios-phone/users/alice/tab-order").text == "handler order")
            #expect(try client.send("PUT", "/v1/clients/ios-phone/users/alice/tabs").text == "handler put")
            for other in [
                "/v1/clients/tabs", "/v1/clients//tabs", "/v1/clients/ios-phone/tabs/", "/v1/clients/ios-phone/tab",
                "/v1/clients/ios-phone/users//tabs", "/v1/clients//users/alice/tabs",
                "/v1/clients/ios-phone/users/a/b/tabs", "/v1/clients/ios-phone/userz/alice/tabs", "/v2/clients/x/tabs",
            ] {
                #expect(try client.send("GET", other).status == 404, "\(other)")
            }
        }
    }

    @Test("route names the pattern a request goes to, for the access log")
    func routeNames() {
        let router = Self.router()
        #expect(router.route(method: "GET", path: "/v1/clients/a/tabs") == "/v1/clients/{client}/tabs")
        #expect(router.route(method: "HEAD", path: "/v1/clients/a/tabs") == "/v1/clients/{client}/tabs")
        #expect(router.route(method: "PUT", path: "/v1/clients/a/users/b/tabs") == "/v1/clients/{client}/users/{user}/tabs")
        #expect(router.route(method: "DELETE", path: "/v1/clients/a/tabs") == "/v1/clients/{client}/tabs")
        #expect(router.route(method: "GET", path: "/nowhere") == nil)
    }
}
