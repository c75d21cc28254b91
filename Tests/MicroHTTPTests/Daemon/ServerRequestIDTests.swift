import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

@Suite("Server: request ids")
struct ServerRequestIDTests {
    private static let prepared = PreparedResponse(
        status: 200, headers: ["Content-Type": "text/plain", "ETag": "\"p\""], body: Data("prepared".utf8))

    /// Answers `/prepared` with a prepared response, `/events` with a stream, anything else with its request id.
    private struct Responder: MicroHTTP.Responder {
        let streams = StreamingResponder(early: Data("data: 1\n\n".utf8))

        func respond(to request: Request) -> Response {
            switch request.path {
            case "/prepared": Response(prepared: ServerRequestIDTests.prepared)
            case "/events": streams.respond(to: request)
            default: Response(status: 404, body: Data(request.requestID.utf8))
            }
        }
    }

    @Test("a well-formed X-Request-Id is taken, echoed on buffered, prepared and streamed answers and handed over")
    func wellFormedIsEchoed() throws {
        try withServer(Responder()) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            for id in ["app-42", "0f8fad5b-d9cb-469f-a165-70867728950e", "dGVzdA+/=", "a:b@c.d_e~f"] {
                let buffered = try client.send("GET", "/other", headers: [("X-Request-Id", id)])
                #expect(buffered.headers["X-Request-Id"] == id)
                #expect(buffered.text == id, "the responder sees the id")
                let prepared = try client.send("GET", "/prepared", headers: [("x-request-id", id)])
                #expect(prepared.headers["X-Request-Id"] == id)
                #expect(prepared.text == "prepared")
                #expect(prepared.headers["ETag"] == "\"p\"")
            }
            let streamed = try TestClient(port: server.port)
            defer { streamed.close() }
            let stream = try streamed.openStream("GET", "/events", headers: [("X-Request-Id", "stream-1")])
            #expect(stream.headers["X-Request-Id"] == "stream-1")
        }
    }

    @Test("a missing or malformed X-Request-Id is replaced by a new, distinct id")
    func malformedIsReplaced() throws {
        try withServer(Responder()) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            let sent: [[(String, String)]] = [
                [], [("X-Request-Id", "")], [("X-Request-Id", "has space")], [("X-Request-Id", "quote\"")],
                [("X-Request-Id", String(repeating: "a", count: 129))], [("X-Request-Id", "é")],
            ]
            var ids: [String] = []
            for headers in sent {
                let response = try client.send("GET", "/prepared", headers: headers)
                let id = try #require(response.headers["X-Request-Id"])
                #expect(id.wholeMatch(of: /[0-9a-f]{1,8}-[0-9a-f]+/) != nil, "generated: \(id)")
                ids.append(id)
            }
            #expect(Set(ids).count == sent.count)
            #expect(try client.send("GET", "/prepared", headers: [("X-Request-Id", String(repeating: "a", count: 128))])
                .headers["X-Request-Id"] == String(repeating: "a", count: 128))
        }
    }
}
