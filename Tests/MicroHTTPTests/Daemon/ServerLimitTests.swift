import Foundation
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing

@Suite("Server: body limit")
struct ServerLimitTests {
    /// Counts handler calls and rejections; answers rejections with a recognisable body.
    private final class CountingResponder: Responder {
        let handled = Atomic<Int>(0)
        let rejected = Mutex<[Rejection]>([])

        func respond(to request: Request) -> Response {
            handled.add(1, ordering: .relaxed)
            return Response(status: 200, body: Data("\(request.body.count)".utf8))
        }

        func respond(to rejection: Rejection, for request: Request) -> Response {
            rejected.withLock { $0.append(rejection) }
            #expect(request.body.isEmpty)
            return Response(
                status: rejection.status,
                headers: ["Content-Type": "text/plain"],
                body: Data("rejected \(request.method) \(request.path)".utf8)
            )
        }
    }

    @Test func declaredOversizedBodyIs413WithoutCallingTheHandler() throws {
        let responder = CountingResponder()
        try withServer(responder) { server in
            let body = Data(repeating: 0x61, count: 2 * 1024 * 1024)
            let response = try httpRequest(port: server.port, "PUT", "/upload", body: body)
            #expect(response.status == 413)
            #expect(response.text == "rejected PUT /upload")
            #expect(responder.handled.load(ordering: .relaxed) == 0)
            #expect(responder.rejected.withLock { $0 } == [.payloadTooLarge(limit: 1024 * 1024)])
            let after = try httpRequest(port: server.port, "PUT", "/upload", body: Data("ok".utf8))
            #expect(after.status == 200)
            #expect(after.text == "2")
        }
    }

    @Test func bodyExactlyAtTheLimitIsAccepted() throws {
        let responder = CountingResponder()
        try withServer(responder, configure: { $0.maxBodySize = 4096 }) { server in
            let response = try httpRequest(port: server.port, "PUT", "/", body: Data(repeating: 1, count: 4096))
            #expect(response.status == 200)
            #expect(response.text == "4096")
        }
    }

    @Test func chunkedBodyOverTheLimitIs413() throws {
        let responder = CountingResponder()
        try withServer(responder, configure: { $0.maxBodySize = 1024 }) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            var raw = "POST /stream HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            let chunk = String(repeating: "z", count: 700)
            for _ in 0..<3 {
                raw += "2bc\r\n\(chunk)\r\n"
            }
            raw += "0\r\n\r\n"
            try client.sendRaw(Data(raw.utf8))
            let response = try client.readResponse(method: "POST")
            #expect(response.status == 413)
            #expect(responder.handled.load(ordering: .relaxed) == 0)
            #expect(responder.rejected.withLock { $0 } == [.payloadTooLarge(limit: 1024)])
        }
    }

    @Test func defaultRejectionAnswerIsPlainText() throws {
        let responder = ClosureResponder { _ in Response(status: 200) }
        try withServer(responder, configure: { $0.maxBodySize = 10 }) { server in
            let response = try httpRequest(port: server.port, "POST", "/", body: Data(repeating: 1, count: 11))
            #expect(response.status == 413)
            #expect(response.headers["Content-Type"]?.hasPrefix("text/plain") == true)
            #expect(response.text.contains("10 bytes"))
        }
    }

    @Test func rejectionDescribesItself() {
        let rejection = Rejection.payloadTooLarge(limit: 5)
        #expect(rejection.status == 413)
        #expect(rejection.reason.contains("5 bytes"))
        #expect(rejection != .payloadTooLarge(limit: 6))
    }
}
