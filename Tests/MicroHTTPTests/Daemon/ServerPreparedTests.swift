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

    @Test("a GET or HEAD without a body can be answered from its head; anything else reaches respond(to:)")
    func answeredFromTheHead() throws {
        let responder = HeadResponder()
        try withServer(responder) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            for _ in 0..<3 {
                let response = try client.send("GET", "/fast?q=1", headers: [("X-Probe", "a")])
                #expect(response.status == 200)
                #expect(response.text == "from the head")
                #expect(response.headers["ETag"] == "\"fast\"")
            }
            let head = try client.send("HEAD", "/fast?q", headers: [("x-PROBE", "")])
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(try client.send("GET", "/slow").text == "from respond GET")
            #expect(responder.respondCalls.load(ordering: .relaxed) == 1)

            #expect(try client.send("PUT", "/fast", body: Data("x".utf8)).text == "from respond PUT")
            #expect(try client.send("GET", "/fast", body: Data("abc".utf8)).text == "from respond GET")
            #expect(responder.respondCalls.load(ordering: .relaxed) == 3, "requests with a body are never prepared")
            #expect(try client.send("GET", "/fast").text == "from the head", "the connection is intact")
            let built = try client.send("GET", "/built?q=7")
            #expect(built.status == 201)
            #expect(built.text == "built")
            #expect(built.headers["X-Query"] == "7")
            #expect(responder.respondCalls.load(ordering: .relaxed) == 3)
        }
        #expect(responder.heads.withLock { $0 } == [
            "GET /fast q=1 probe=a", "GET /fast q=1 probe=a", "GET /fast q=1 probe=a", "HEAD /fast q= probe=",
            "GET /slow q=nil probe=nil", "GET /fast q=nil probe=nil", "GET /built q=7 probe=nil",
        ])
    }
}
