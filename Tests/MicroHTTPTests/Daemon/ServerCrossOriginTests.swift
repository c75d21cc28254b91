import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

@Suite("Server: cross-origin fields")
struct ServerCrossOriginTests {
    private static let prepared = PreparedResponse(
        status: 200, headers: ["Content-Type": "text/plain", "Vary": "Accept-Language"], body: Data("public".utf8))

    /// `GET /public` (prepared) and `GET|PUT /private`; `OPTIONS` answered 204 with `Allow`, as a router-based
    /// responder would.
    private struct Responder: MicroHTTP.Responder {
        func respond(to request: Request) -> Response {
            if request.method == "OPTIONS" {
                let allow = request.path == "/public" ? "GET, HEAD, OPTIONS" : "GET, HEAD, PUT, OPTIONS"
                return Response(status: 204, headers: ["Allow": allow])
            }
            return request.path == "/public" ? Response(prepared: prepared) : Response(status: 200, body: Data("ok".utf8))
        }

        func route(method: String, path: String) -> String? {
            path
        }
    }

    private static func policy(origins: Set<String>, anyOrigin: Bool) -> CrossOriginPolicy {
        var policy = CrossOriginPolicy()
        policy.origins = origins
        policy.anyOriginForPublicRoutes = anyOrigin
        policy.publicRoutes = ["/public"]
        return policy
    }

    @Test("an exact origin gets itself back with Vary: Origin, on prepared and built answers; others get no grant")
    func exactOrigins() throws {
        try withServer(Responder(), configure: {
            $0.crossOrigin = Self.policy(origins: ["https://app.example"], anyOrigin: false)
        }) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            for path in ["/public", "/private"] {
                let allowed = try client.send("GET", path, headers: [("Origin", "https://app.example")])
                #expect(allowed.headers["Access-Control-Allow-Origin"] == "https://app.example")
                #expect(allowed.headers.values("Vary").contains("Origin"))
                #expect(allowed.headers["Access-Control-Expose-Headers"] == "ETag, Location, Retry-After, X-Request-Id")
                let refused = try client.send("GET", path, headers: [("Origin", "https://evil.example")])
                #expect(refused.headers["Access-Control-Allow-Origin"] == nil)
                #expect(refused.headers.values("Vary").contains("Origin"), "a cache must not reuse a grant")
                let sameOrigin = try client.send("GET", path)
                #expect(sameOrigin.headers["Access-Control-Allow-Origin"] == nil)
                #expect(sameOrigin.headers.values("Vary").contains("Origin"))
            }
            #expect(try client.send("GET", "/public").headers.values("Vary").contains("Accept-Language"))
        }
    }

    @Test("a preflight gets the methods of Allow, the allowed request fields and a max age")
    func preflight() throws {
        try withServer(Responder(), configure: {
            $0.crossOrigin = Self.policy(origins: ["https://app.example"], anyOrigin: false)
        }) { server in
            let response = try httpRequest(
                port: server.port, "OPTIONS", "/private",
                headers: [("Origin", "https://app.example"), ("Access-Control-Request-Method", "PUT")])
            #expect(response.status == 204)
            #expect(response.headers["Access-Control-Allow-Origin"] == "https://app.example")
            #expect(response.headers["Access-Control-Allow-Methods"] == "GET, HEAD, PUT, OPTIONS")
            #expect(response.headers["Access-Control-Allow-Headers"]?.contains("Authorization") == true)
            #expect(response.headers["Access-Control-Allow-Headers"]?.contains("If-Match") == true)
            #expect(response.headers["Access-Control-Max-Age"] == "600")
            #expect(response.headers["Access-Control-Expose-Headers"] == nil)
        }
    }

    @Test("* opens GET and HEAD of the public routes to every page, with or without Origin, and nothing else")
    func anyOriginOnPublicRoutes() throws {
        try withServer(Responder(), configure: {
            $0.crossOrigin = Self.policy(origins: [], anyOrigin: true)
        }) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            for headers in [[("Origin", "https://anywhere.example")], []] {
                let response = try client.send("GET", "/public", headers: headers)
                #expect(response.headers["Access-Control-Allow-Origin"] == "*")
                #expect(!response.headers.values("Vary").contains("Origin"))
                #expect(try client.send("HEAD", "/public", headers: headers).headers["Access-Control-Allow-Origin"] == "*")
            }
            let other = try client.send("GET", "/private", headers: [("Origin", "https://anywhere.example")])
            #expect(other.headers["Access-Control-Allow-Origin"] == nil)
            let put = try client.send(
                "OPTIONS", "/public",
                headers: [("Origin", "https://anywhere.example"), ("Access-Control-Request-Method", "PUT")])
            #expect(put.headers["Access-Control-Allow-Origin"] == nil, "only reads are public")
        }
    }

    @Test("without a policy no cross-origin field is sent")
    func noPolicy() throws {
        try withServer(Responder()) { server in
            let response = try httpRequest(port: server.port, "GET", "/public", headers: [("Origin", "https://a.example")])
            #expect(response.headers["Access-Control-Allow-Origin"] == nil)
            #expect(response.headers["Vary"] == "Accept-Language")
        }
    }
}
