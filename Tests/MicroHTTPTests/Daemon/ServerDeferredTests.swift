import Foundation
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing
import TestSupport

@Suite("Server: deferred responses")
struct ServerDeferredTests {
    /// Holds the deferred responses handed out, so a test can complete them from its own thread.
    private final class Pending: Sendable {
        let deferreds = Mutex<[DeferredResponse]>([])

        var count: Int { deferreds.withLock { $0.count } }

        func completeAll(_ response: (Int) -> Response) {
            for (index, deferred) in deferreds.withLock({ $0 }).enumerated() {
                deferred.complete(response(index))
            }
        }
    }

    @Test("20 requests wait on one worker thread at once; each gets its own answer when completed")
    func manyPendingOnOneThread() throws {
        let pending = Pending()
        let responder = ClosureResponder { request in
            if request.path == "/plain" {
                return Response(status: 200, body: Data("plain".utf8))
            }
            let deferred = DeferredResponse()
            pending.deferreds.withLock { $0.append(deferred) }
            return Response(deferred: deferred)
        }
        try withServer(responder, configure: { $0.threadPoolSize = 1 }) { server in
            let clients = try (0..<20).map { _ in try TestClient(port: server.port) }
            defer { clients.forEach { $0.close() } }
            for (index, client) in clients.enumerated() {
                try client.sendRaw(Data("GET /wait/\(index) HTTP/1.1\r\nHost: test\r\n\r\n".utf8))
            }
            #expect(eventually { pending.count == 20 }, "the only worker thread took every request")
            #expect(try httpRequest(port: server.port, "GET", "/plain").text == "plain", "and still serves others")
            pending.completeAll { index in
                Response(status: 201, headers: ["X-Index": "\(index)"], body: Data("answer \(index)".utf8))
            }
            var answers: Set<String> = []
            for client in clients {
                let response = try client.readResponse()
                #expect(response.status == 201)
                answers.insert(response.text)
            }
            #expect(answers == Set((0..<20).map { "answer \($0)" }))
            #expect(try clients[0].send("GET", "/plain").text == "plain", "the connection stays usable")
        }
    }

    @Test("a deferred response completed before the handler returns is sent at once")
    func completedBeforeReturn() throws {
        let responder = ClosureResponder { _ in
            let deferred = DeferredResponse()
            deferred.complete(Response(status: 200, body: Data("early".utf8)))
            deferred.complete(Response(status: 500))
            return Response(deferred: deferred)
        }
        try withServer(responder) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            for _ in 0..<3 {
                let response = try client.send("PUT", "/x", body: Data("body".utf8))
                #expect(response.status == 200)
                #expect(response.text == "early")
            }
        }
    }

    @Test("a deferred response still pending at shutdown is answered 503 and the server stops")
    func pendingAtShutdown() throws {
        let pending = Pending()
        let responder = ClosureResponder { _ in
            let deferred = DeferredResponse()
            pending.deferreds.withLock { $0.append(deferred) }
            return Response(deferred: deferred)
        }
        var configuration = Server.Configuration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = Server(configuration: configuration, responder: responder, logger: LogCapture().logger)
        try server.start()
        let client = try TestClient(port: server.port)
        defer { client.close() }
        try client.sendRaw(Data("GET /never HTTP/1.1\r\nHost: test\r\n\r\n".utf8))
        #expect(eventually { pending.count == 1 })
        server.shutdown(gracePeriod: .milliseconds(100))
        #expect(try client.readResponse().status == 503)
        #expect(server.inFlightRequests == 0)
    }
}
