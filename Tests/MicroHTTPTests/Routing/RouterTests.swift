import Foundation
import MicroHTTP
import Testing

@Suite("Router")
struct RouterTests {
    private static func text(_ value: String) -> Router.Handler {
        { _ in Response(status: 200, body: Data(value.utf8)) }
    }

    private static func run(_ match: Router.Match) -> (String, PathParameters)? {
        guard case .found(let handler, let parameters) = match else {
            return nil
        }
        let response = handler(Request(method: "GET", path: "/"))
        return (String(decoding: response.body, as: UTF8.self), parameters)
    }

    @Test func capturesPathParameters() throws {
        var router = Router()
        router.add("GET", "/v1/clients/{client}/users/{user}/tabs", Self.text("user tabs"))
        router.add("GET", "/v1/clients/{client}/tabs", Self.text("tabs"))
        let userTabs = try #require(Self.run(router.match(method: "GET", path: "/v1/clients/ios/users/u-1/tabs")))
        #expect(userTabs.0 == "user tabs")
        #expect(userTabs.1 == ["client": "ios", "user": "u-1"])
        let tabs = try #require(Self.run(router.match(method: "GET", path: "/v1/clients/web/tabs")))
        #expect(tabs.0 == "tabs")
        #expect(tabs.1 == ["client": "web"])
    }

    @Test func parametersKeepNonASCIIBytes() throws {
        var router = Router()
        router.add("GET", "/v1/clients/{client}/tabs", Self.text("tabs"))
        router.add("GET", "/", Self.text("root"))
        let tabs = try #require(Self.run(router.match(method: "GET", path: "/v1/clients/caf\u{E9}/tabs")))
        #expect(tabs.1 == ["client": "caf\u{E9}"])
        #expect(try #require(Self.run(router.match(method: "GET", path: "/"))).0 == "root")
        #expect(try #require(Self.run(router.match(method: "GET", path: ""))).0 == "root")
    }

    @Test func unknownPathIsNotFound() {
        var router = Router()
        router.add("GET", "/healthz", Self.text("ok"))
        guard case .notFound = router.match(method: "GET", path: "/nope") else {
            Issue.record("expected notFound")
            return
        }
    }

    @Test func firstAddedWinsAcrossRoutesOfOtherLengths() throws {
        var router = Router()
        router.add("GET", "/v1/{a}", Self.text("short"))
        router.add("GET", "/v1/clients/{client}", Self.text("first"))
        router.add("GET", "/v1/clients/{client}/tabs/{deep}/x", Self.text("long"))
        router.add("GET", "/v1/{a}/web", Self.text("second"))
        #expect(try #require(Self.run(router.match(method: "GET", path: "/v1/clients/web"))).0 == "first")
        #expect(try #require(Self.run(router.match(method: "GET", path: "/v1/x"))).0 == "short")
        #expect(try #require(Self.run(router.match(method: "GET", path: "/v1/clients/c/tabs/d/x"))).0 == "long")
        for path in ["/v1/clients/c/tabs/d/x/y/z/w", "/v1/clients/c/tabs"] {
            guard case .notFound = router.match(method: "GET", path: path) else {
                Issue.record("expected notFound for \(path)")
                continue
            }
        }
    }

    @Test func parameterNeedsOneNonEmptySegment() {
        var router = Router()
        router.add("GET", "/v1/clients/{client}/tabs", Self.text("tabs"))
        for path in ["/v1/clients//tabs", "/v1/clients/a/b/tabs", "/v1/clients/tabs", "/v1/clients/a/tabs/"] {
            guard case .notFound = router.match(method: "GET", path: path) else {
                Issue.record("expected notFound for \(path)")
                continue
            }
        }
    }

    @Test func wrongMethodListsAllowedMethodsSorted() {
        var router = Router()
        router.add("PUT", "/v1/clients/{client}/config", Self.text("put"))
        router.add("GET", "/v1/clients/{client}/config", Self.text("get"))
        router.add("DELETE", "/v1/clients/{client}/config", Self.text("delete"))
        guard case .methodNotAllowed(let allowed) = router.match(method: "POST", path: "/v1/clients/a/config") else {
            Issue.record("expected methodNotAllowed")
            return
        }
        #expect(allowed == ["DELETE", "GET", "HEAD", "PUT"])
    }

    @Test func headUsesGetRoute() throws {
        var router = Router()
        router.add("GET", "/healthz", Self.text("ok"))
        let result = try #require(Self.run(router.match(method: "HEAD", path: "/healthz")))
        #expect(result.0 == "ok")
    }

    @Test func allowedWithoutGetHasNoHead() {
        var router = Router()
        router.add("POST", "/v1/import/plist", Self.text("import"))
        guard case .methodNotAllowed(let allowed) = router.match(method: "GET", path: "/v1/import/plist") else {
            Issue.record("expected methodNotAllowed")
            return
        }
        #expect(allowed == ["POST"])
    }

    @Test func firstAddedRouteWins() throws {
        var router = Router()
        router.add("GET", "/v1/clients/{client}/config/versions", Self.text("versions"))
        router.add("GET", "/v1/clients/{client}/config/{anything}", Self.text("anything"))
        let result = try #require(Self.run(router.match(method: "GET", path: "/v1/clients/a/config/versions")))
        #expect(result.0 == "versions")
        let other = try #require(Self.run(router.match(method: "GET", path: "/v1/clients/a/config/other")))
        #expect(other.0 == "anything")
        #expect(other.1 == ["client": "a", "anything": "other"])
    }

    @Test func routerAsResponderSetsParametersAndAnswers404And405() {
        var router = Router()
        router.add("GET", "/items/{id}", { request in
            Response(status: 200, body: Data((request.pathParameters["id"] ?? "-").utf8))
        })
        let found = router.respond(to: Request(method: "GET", path: "/items/42"))
        #expect(found.status == 200)
        #expect(String(decoding: found.body, as: UTF8.self) == "42")
        let missing = router.respond(to: Request(method: "GET", path: "/other"))
        #expect(missing.status == 404)
        let wrong = router.respond(to: Request(method: "DELETE", path: "/items/42"))
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET, HEAD")
    }
}
