import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The request-head deadline: a client must send its whole request head within `requestHeadTimeout`, however
/// steadily it trickles bytes, while idle keep-alive connections and slow bodies stay governed by the idle timeout.
@Suite("Server: request-head deadline")
struct ServerHeadDeadlineTests {
    /// A one-second head deadline under a 30-second idle timeout, so only the head deadline can close a connection.
    private static func configure(_ configuration: inout Server.Configuration) {
        configuration.requestHeadTimeout = 1
        configuration.connectionTimeout = 30
    }

    private static let echoLength = ClosureResponder { request in
        Response(status: 200, body: Data("\(request.body.count)".utf8))
    }

    /// How long a slow client is watched before the test gives up: a generous bound, not a measurement.
    private static let watchLimit: Duration = .seconds(20)

    /// Sends `bytes` one at a time every 300 ms until the server closes the connection or ``watchLimit`` passes,
    /// checking between bytes that a normal client on its own connection is still answered; returns whether the
    /// server closed the connection.
    private static func trickle(_ bytes: [UInt8], on client: TestClient, port: Int) throws -> Bool {
        let deadline = ContinuousClock.now.advanced(by: watchLimit)
        var next = 0
        while ContinuousClock.now < deadline {
            if client.isClosedByPeer {
                return true
            }
            let byte = next < bytes.count ? bytes[next] : UInt8(ascii: "a")
            next += 1
            if (try? client.sendRaw(Data([byte]))) == nil {
                return true
            }
            let normal = try httpRequest(port: port, "GET", "/normal")
            #expect(normal.status == 200)
            usleep(300_000)
        }
        return client.isClosedByPeer
    }

    private static let slowHead = Array("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)

    @Test func headTimeoutDefaultsToTheConnectionTimeout() {
        var configuration = Server.Configuration()
        #expect(configuration.requestHeadTimeout == 30)
        configuration.connectionTimeout = 7
        #expect(configuration.requestHeadTimeout == 7)
        configuration.requestHeadTimeout = 2
        configuration.connectionTimeout = 9
        #expect(configuration.requestHeadTimeout == 2)
    }

    @Test func tricklingHeadIsClosedWhileNormalClientsAreServed() throws {
        try withServer(Self.echoLength, configure: Self.configure) { server in
            let slow = try TestClient(port: server.port)
            defer { slow.close() }
            let closed = try Self.trickle(Self.slowHead, on: slow, port: server.port)
            #expect(closed)
            let after = try httpRequest(port: server.port, "GET", "/after")
            #expect(after.status == 200)
        }
    }

    @Test func tricklingNextHeadOnKeptAliveConnectionIsClosed() throws {
        try withServer(Self.echoLength, configure: Self.configure) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            let first = try client.send("GET", "/first")
            #expect(first.status == 200)
            let closed = try Self.trickle(Self.slowHead, on: client, port: server.port)
            #expect(closed)
        }
    }

    @Test func idleKeptAliveConnectionOutlivesTheHeadTimeout() throws {
        try withServer(Self.echoLength, configure: Self.configure) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            let first = try client.send("GET", "/first")
            let port = client.localPort
            #expect(first.status == 200)
            Thread.sleep(forTimeInterval: 2.5)
            #expect(!client.isClosedByPeer)
            let second = try client.send("GET", "/second")
            #expect(second.status == 200)
            #expect(client.localPort == port)
        }
    }

    @Test func slowBodyAfterACompleteHeadIsNotCut() throws {
        try withServer(Self.echoLength, configure: Self.configure) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            try client.sendRaw(Data("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n".utf8))
            for _ in 0..<10 {
                usleep(300_000)
                try client.sendRaw(Data("b".utf8))
            }
            let response = try client.readResponse(method: "POST")
            #expect(response.status == 200)
            #expect(response.text == "10")
        }
    }
}
