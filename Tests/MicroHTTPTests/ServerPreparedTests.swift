import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

@Suite("Server: prepared responses")
struct ServerPreparedTests {
    private static let prepared = PreparedResponse(
        status: 200, headers: ["Content-Type": "application/json", "ETag": "\"v1\""], body: Data(#"{"ok":true}"#.utf8))

    @Test("one prepared response answers many requests on many connections, and HEAD gets its head")
    func reusedAcrossConnections() throws {
        let responder = ClosureResponder { _ in Response(prepared: Self.prepared) }
        try withServer(responder) { server in
            let clients = try (0..<4).map { _ in try TestClient(port: server.port) }
            defer { clients.forEach { $0.close() } }
            for _ in 0..<25 {
                for client in clients {
                    let response = try client.send("GET", "/x")
                    #expect(response.status == 200)
                    #expect(response.text == #"{"ok":true}"#)
                    #expect(response.headers["ETag"] == "\"v1\"")
                    #expect(response.headers["Content-Length"] == "11")
                }
            }
            let head = try clients[0].send("HEAD", "/x")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(try clients[0].send("GET", "/x").text == #"{"ok":true}"#, "the connection is intact after HEAD")
        }
    }

    @Test("changing a prepared response's headers sends the changed response")
    func changedIsNotPrepared() throws {
        let responder = ClosureResponder { _ in
            var response = Response(prepared: Self.prepared)
            response.headers.replaceOrAdd(name: "ETag", value: "\"v2\"")
            return response
        }
        try withServer(responder) { server in
            let response = try httpRequest(port: server.port, "GET", "/x")
            #expect(response.headers["ETag"] == "\"v2\"")
            #expect(response.text == #"{"ok":true}"#)
        }
    }
}
