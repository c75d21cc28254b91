import Foundation
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing

/// Requests whose end could be read two ways (RFC 9112 §6.1–6.3, §11.2) and requests with a bad `Host` or target,
/// written on a raw socket: each gets exactly one answer and the connection closes, so no byte of one request is
/// ever answered as a second. Well-formed variants of the same features keep working.
@Suite("Server: request framing")
struct ServerFramingTests {
    /// Echoes the body and names the path and query; counts the requests it is handed.
    final class Echo: Responder {
        let calls = Mutex<[String]>([])

        func respond(to request: Request) -> Response {
            calls.withLock { $0.append(request.path) }
            var headers: HTTPHeaders = ["X-Path": request.path]
            headers.add(name: "X-Query", value: request.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
            return Response(status: 200, headers: headers, body: request.body)
        }
    }

    struct Refused: CustomTestStringConvertible, Sendable {
        var name: String
        var request: String
        var status: Int
        var testDescription: String { name }
    }

    static let smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"

    static let refused: [Refused] = [
        Refused(
            name: "Transfer-Encoding and Content-Length",
            request: "PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled,
            status: 400),
        Refused(
            name: "Content-Length and Transfer-Encoding",
            request: "PUT /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n" + smuggled,
            status: 400),
        Refused(
            name: "two different Content-Length values",
            request: "PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 34\r\n\r\n" + smuggled,
            status: 400),
        Refused(
            name: "space between Content-Length and the colon",
            request: "PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length : 34\r\n\r\n" + smuggled,
            status: 400),
        Refused(
            name: "tab between Transfer-Encoding and the colon",
            request: "PUT /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding\t: chunked\r\n\r\n0\r\n\r\n" + smuggled,
            status: 400),
        Refused(
            name: "unknown transfer coding",
            request: "PUT /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n" + smuggled,
            status: 501),
        Refused(
            name: "gzip before chunked",
            request: "PUT /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n" + smuggled,
            status: 501),
        Refused(
            name: "chunked twice in one field",
            request: "PUT /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n" + smuggled,
            status: 400),
        Refused(
            name: "chunked in two fields",
            request: "PUT /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                + smuggled,
            status: 400),
        Refused(
            name: "Transfer-Encoding in HTTP/1.0",
            request: "PUT /x HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled,
            status: 400),
        Refused(
            name: "Transfer-Encoding folded onto a continuation line, with Content-Length",
            request: "PUT /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"
                + smuggled,
            status: 400),
        Refused(
            name: "a folded field of no framing role",
            request: "GET /x HTTP/1.1\r\nHost: x\r\nX-Note: one\r\n\ttwo\r\n\r\n" + smuggled,
            status: 400),
        Refused(
            name: "a folded Host",
            request: "GET /x HTTP/1.1\r\nHost:\r\n x\r\n\r\n" + smuggled,
            status: 400),
        Refused(name: "HTTP/1.1 without Host", request: "GET /x HTTP/1.1\r\n\r\n" + smuggled, status: 400),
        Refused(name: "two Host fields", request: "GET /x HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n" + smuggled, status: 400),
        Refused(name: "a Host that is not a host", request: "GET /x HTTP/1.1\r\nHost: a/b\r\n\r\n" + smuggled, status: 400),
        Refused(name: "a target that is no path", request: "GET x/y HTTP/1.1\r\nHost: x\r\n\r\n" + smuggled, status: 400),
        Refused(
            name: "an absolute target of another scheme",
            request: "GET ftp://x/y HTTP/1.1\r\nHost: x\r\n\r\n" + smuggled, status: 400),
    ]

    @Test(arguments: refused)
    func answersOnceAndCloses(_ refused: Refused) throws {
        let echo = Echo()
        try withServer(echo) { server in
            let exchange = try RawExchange(port: server.port, request: refused.request)
            #expect(exchange.responses.map(\.status) == [refused.status])
            #expect(exchange.closed)
            #expect(exchange.responses.first?.headers["Connection"]?.lowercased() == "close")
            #expect(echo.calls.withLock { $0 }.isEmpty)
        }
    }

    @Test("an absolute-form target is served by its path, and the connection stays open")
    func absoluteForm() throws {
        let echo = Echo()
        try withServer(echo) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            try client.sendRaw(Data("GET http://example.test:8080/v1/a%20b?q=1&r=2 HTTP/1.1\r\nHost: example.test:8080\r\n\r\n".utf8))
            let first = try client.readResponse()
            #expect(first.status == 200)
            #expect(first.headers["X-Path"] == "/v1/a b")
            #expect(first.headers["X-Query"] == "q=1&r=2")
            try client.sendRaw(Data("GET HTTPS://example.test HTTP/1.1\r\nHost: example.test\r\n\r\n".utf8))
            #expect(try client.readResponse().headers["X-Path"] == "/")
            #expect(try client.send("GET", "/after").headers["X-Path"] == "/after")
            #expect(!client.isClosedByPeer)
        }
    }

    @Test("an absolute-form target is answered from the request head like its path")
    func absoluteFormHeadAnswer() throws {
        let responder = HeadResponder()
        try withServer(responder) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            try client.sendRaw(Data("GET http://h/fast HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
            let response = try client.readResponse()
            #expect(response.text == "from the head")
            #expect(responder.respondCalls.load(ordering: .relaxed) == 0)
        }
    }

    @Test("unambiguous framings still work: chunked in any case, a repeated equal Content-Length, HTTP/1.0 without Host, empty and padded field values")
    func unambiguousFramings() throws {
        let echo = Echo()
        try withServer(echo) { server in
            let requests = [
                ("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", "hello"),
                ("POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", "hello"),
                ("POST /c HTTP/1.1\r\nHost: [::1]:8080\r\nContent-Length: 2\r\n\r\nhi", "hi"),
                ("GET /d HTTP/1.0\r\n\r\n", ""),
                ("GET /e HTTP/1.1\r\nHost: x\r\nX-Empty:\r\nX-Spaced:  \t  v  \r\nX-Bare:v\r\n\r\n", ""),
            ]
            for (request, body) in requests {
                let exchange = try RawExchange(port: server.port, request: request, expectClose: request.contains("HTTP/1.0"))
                #expect(exchange.responses.map(\.status) == [200], "\(request)")
                #expect(exchange.responses.first?.text == body)
            }
            #expect(echo.calls.withLock { $0 } == ["/a", "/b", "/c", "/d", "/e"])
        }
    }
}
