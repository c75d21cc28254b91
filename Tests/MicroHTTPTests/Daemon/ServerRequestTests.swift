import Foundation
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing
import TestSupport

@Suite("Server: requests and responses")
struct ServerRequestTests {
    private static let echo = ClosureResponder { request in
        var headers: HTTPHeaders = ["Content-Type": "application/octet-stream"]
        headers.add(name: "X-Method", value: request.method)
        headers.add(name: "X-Path", value: request.path)
        return Response(status: 200, headers: headers, body: request.body)
    }

    @Test func routesWithPathParameters() throws {
        var router = Router()
        router.add("GET", "/v1/clients/{client}/users/{user}/tabs") { request in
            let client = request.pathParameters["client"] ?? "-"
            let user = request.pathParameters["user"] ?? "-"
            return Response(status: 200, headers: ["Content-Type": "text/plain"], body: Data("\(client)/\(user)".utf8))
        }
        try withServer(router) { server in
            let response = try httpRequest(port: server.port, "GET", "/v1/clients/ios/users/anna/tabs")
            #expect(response.status == 200)
            #expect(response.text == "ios/anna")
            #expect(response.headers["content-type"] == "text/plain")
        }
    }

    @Test func answers404And405() throws {
        var router = Router()
        router.add("GET", "/v1/clients/{client}/config") { _ in Response(status: 200) }
        router.add("PUT", "/v1/clients/{client}/config") { _ in Response(status: 200) }
        try withServer(router) { server in
            let missing = try httpRequest(port: server.port, "GET", "/v1/unknown")
            #expect(missing.status == 404)
            let wrong = try httpRequest(port: server.port, "POST", "/v1/clients/a/config", body: Data("{}".utf8))
            #expect(wrong.status == 405)
            #expect(wrong.headers["Allow"] == "GET, HEAD, PUT")
        }
    }

    @Test func decodesPathAndQuery() throws {
        let seen = Mutex<Request?>(nil)
        let responder = ClosureResponder { request in
            seen.withLock { $0 = request }
            return Response(status: 204)
        }
        try withServer(responder) { server in
            let response = try httpRequest(
                port: server.port,
                "GET",
                "/files/J%C3%BCrgen%20Doc?name=J%C3%BCrgen&x=1&x=2&sum=a%2Bb&flag"
            )
            #expect(response.status == 204)
            let request = try #require(seen.withLock { $0 })
            #expect(request.path == "/files/Jürgen Doc")
            #expect(request.query("name") == "Jürgen")
            #expect(request.query("x") == "1")
            #expect(request.queryItems.filter { $0.name == "x" }.map(\.value) == ["1", "2"])
            #expect(request.query("sum") == "a+b")
            #expect(request.query("flag") == "")
            #expect(request.query("missing") == nil)
            #expect(request.remoteAddress == "127.0.0.1")
        }
    }

    @Test func requestHeadersAreCaseInsensitive() throws {
        let responder = ClosureResponder { request in
            let value = request.headers["x-custom-header"] ?? "none"
            let all = request.headers.values("X-MULTI").joined(separator: ",")
            return Response(status: 200, body: Data("\(value)|\(all)".utf8))
        }
        try withServer(responder) { server in
            let response = try httpRequest(
                port: server.port,
                "GET",
                "/",
                headers: [("X-Custom-Header", "Value 1"), ("x-multi", "a"), ("X-Multi", "b")]
            )
            #expect(response.text.hasPrefix("Value 1|"))
            #expect(Set(response.text.split(separator: "|").last?.split(separator: ",") ?? []) == ["a", "b"])
        }
    }

    @Test(arguments: [0, 11, 512 * 1024])
    func echoesBody(size: Int) throws {
        let body = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try withServer(Self.echo) { server in
            let response = try httpRequest(port: server.port, "PUT", "/echo", body: body)
            #expect(response.status == 200)
            #expect(response.headers["X-Method"] == "PUT")
            #expect(response.headers["Content-Length"] == "\(size)")
            #expect(response.body == body)
        }
    }

    @Test func echoesChunkedBodyUnderTheLimit() throws {
        try withServer(Self.echo) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            let head = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            try client.sendRaw(Data((head + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n").utf8))
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "hello world")
        }
    }

    @Test func keepsConnectionAliveAcrossRequests() throws {
        try withServer(Self.echo) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            let first = try client.send("GET", "/one")
            let port = client.localPort
            let second = try client.send("POST", "/two", body: Data("payload".utf8))
            let third = try client.send("HEAD", "/three")
            #expect(first.status == 200)
            #expect(first.headers["X-Path"] == "/one")
            #expect(second.text == "payload")
            #expect(third.status == 200)
            #expect(third.body.isEmpty)
            #expect(client.localPort == port)
            #expect(!client.isClosedByPeer)
            #expect(first.headers["Connection"]?.lowercased() != "close")
        }
    }

    @Test func noContentHasNoBodyAndKeepsTheConnectionUsable() throws {
        let responder = ClosureResponder { request in
            if request.path == "/empty" {
                return Response(status: 204, headers: ["X-Note": "dropped body"], body: Data("must not be sent".utf8))
            }
            if request.path == "/same" {
                return Response(status: 304, body: Data("must not be sent".utf8))
            }
            return Response(status: 200, body: Data("after".utf8))
        }
        try withServer(responder) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            let empty = try client.send("DELETE", "/empty")
            #expect(empty.status == 204)
            #expect(empty.headers["X-Note"] == "dropped body")
            let same = try client.send("GET", "/same")
            #expect(same.status == 304)
            let after = try client.send("GET", "/after")
            #expect(after.text == "after")
        }
    }

    @Test func leavesContentTypeToTheResponder() throws {
        let responder = ClosureResponder { _ in Response(status: 200, body: Data("raw".utf8)) }
        try withServer(responder) { server in
            let response = try httpRequest(port: server.port, "GET", "/")
            #expect(response.text == "raw")
            #expect(response.headers["Content-Type"] == nil)
        }
    }

    @Test func invalidStatusBecomes500() throws {
        let responder = ClosureResponder { _ in Response(status: 42, body: Data("odd".utf8)) }
        let logs = LogCapture()
        try withServer(responder, logs: logs) { server in
            let response = try httpRequest(port: server.port, "GET", "/")
            #expect(response.status == 500)
        }
        #expect(logs.all.contains { $0.level == .error })
    }

    @Test func survivesMalformedRequests() throws {
        try withServer(Self.echo) { server in
            for garbage in ["NOT HTTP AT ALL\r\n\r\n", "GET / HTTP/1.1\r\nBad Header Line\r\n\r\n", "\u{1}\u{2}\r\n\r\n"] {
                let client = try TestClient(port: server.port)
                try client.sendRaw(Data(garbage.utf8))
                if let response = try? client.readResponse() {
                    #expect((400...499).contains(response.status))
                }
                client.close()
            }
            let response = try httpRequest(port: server.port, "GET", "/still-alive")
            #expect(response.status == 200)
        }
    }

    @Test func oversizedHeadIsRefusedByTheServer() throws {
        try withServer(Self.echo, configure: { $0.connectionMemoryLimit = 8 * 1024 }) { server in
            let big = String(repeating: "a", count: 16 * 1024)
            let response = try httpRequest(port: server.port, "GET", "/", headers: [("X-Big", big)])
            #expect(response.status == 431 || response.status == 414 || response.status == 413)
            let after = try httpRequest(port: server.port, "GET", "/ok")
            #expect(after.status == 200)
        }
    }

    @Test func clientVanishingMidBodyFreesTheRequest() throws {
        let called = Atomic<Int>(0)
        let responder = ClosureResponder { _ in
            called.add(1, ordering: .relaxed)
            return Response(status: 200)
        }
        try withServer(responder) { server in
            let client = try TestClient(port: server.port)
            try client.sendRaw(Data("PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n0123456789".utf8))
            #expect(eventually { server.inFlightRequests == 1 })
            client.close()
            #expect(eventually { server.inFlightRequests == 0 })
            #expect(called.load(ordering: .relaxed) == 0)
            #expect(try httpRequest(port: server.port, "GET", "/").status == 200)
        }
    }
}
