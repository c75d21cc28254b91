import Foundation
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing
import TestSupport

@Suite("Server: streamed responses")
struct ServerStreamTests {
    private static let event = Data("data: {\"version\":1}\n\n".utf8)
    private static let eventEnd = Data("\n\n".utf8)

    @Test func headArrivesAtOnceAndDataWrittenLaterFollows() throws {
        let responder = StreamingResponder()
        try withServer(responder) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            let head = try client.openStream("GET", "/events")
            #expect(head.status == 200)
            #expect(head.headers["Content-Type"] == "text/event-stream")
            #expect(head.headers["Transfer-Encoding"]?.lowercased() == "chunked")
            #expect(head.headers["Content-Length"] == nil)
            #expect(head.body.isEmpty)
            let stream = try #require(responder.streams.first)
            #expect(server.openStreams == 1)
            #expect(stream.write(Self.event))
            #expect(try client.readBody(until: Self.eventEnd) == Self.event)
            #expect(!stream.isClosed)
        }
    }

    @Test(arguments: [1, 4])
    func streamsWorkWithAnyThreadPoolSize(threads: Int) throws {
        let responder = StreamingResponder()
        try withServer(responder, configure: { $0.threadPoolSize = threads }) { server in
            let clients = try (0..<3).map { _ in try TestClient(port: server.port) }
            defer { clients.forEach { $0.close() } }
            for client in clients {
                #expect(try client.openStream("GET", "/events").status == 200)
            }
            #expect(try httpRequest(port: server.port, "GET", "/plain").text == "ok")
            for stream in responder.streams {
                #expect(stream.write(Self.event))
                stream.finish()
            }
            for client in clients {
                #expect(try client.readBody(until: Self.eventEnd) == Self.event)
                #expect(try client.readBodyChunk() == nil)
            }
        }
    }

    /// A finished stream is released once sent; an abandoned one is released once the vanished client is noticed,
    /// at the latest at shutdown (nobody writes to it here).
    @Test func serverLetsGoOfFinishedAndAbandonedStreams() throws {
        let finished = WeakStreams()
        let abandoned = WeakStreams()
        let responder = ClosureResponder { request in
            let stream = ResponseStream()
            stream.write(Self.event)
            if request.path == "/done" {
                finished.add(stream)
                stream.finish()
            } else {
                abandoned.add(stream)
            }
            return Response(status: 200, stream: stream)
        }
        try withServer(responder) { server in
            let client = try TestClient(port: server.port)
            _ = try client.openStream("GET", "/open")
            #expect(try client.readBody(until: Self.eventEnd) == Self.event)
            client.close()
            let done = try httpRequest(port: server.port, "GET", "/done")
            #expect(done.body == Self.event)
            #expect(finished.added == 1)
            #expect(eventually { finished.alive == 0 })
        }
        #expect(abandoned.added == 1)
        #expect(abandoned.alive == 0)
    }

    @Test func severalWritesArriveInOrder() throws {
        let responder = StreamingResponder()
        try withServer(responder) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            _ = try client.openStream("GET", "/events")
            let stream = try #require(responder.streams.first)
            let events = (1...100).map { Data("id: \($0)\ndata: event \($0)\n\n".utf8) }
            for (index, event) in events.enumerated() {
                #expect(stream.write(event))
                if index.isMultiple(of: 10) {
                    Thread.sleep(forTimeInterval: 0.002)
                }
            }
            var received: [Data] = []
            for _ in events {
                received.append(try client.readBody(until: Self.eventEnd))
            }
            #expect(received == events)
        }
    }

    @Test func finishEndsTheBodyAndKeepsTheConnectionUsable() throws {
        let responder = StreamingResponder()
        try withServer(responder) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            _ = try client.openStream("GET", "/events")
            let stream = try #require(responder.streams.first)
            let closes = CloseCounter()
            closes.watch(stream)
            #expect(stream.write(Data("last words".utf8)))
            stream.finish()
            #expect(stream.isClosed)
            #expect(closes.count == 1)
            var body = Data()
            while let chunk = try client.readBodyChunk() {
                body.append(chunk)
            }
            #expect(String(decoding: body, as: UTF8.self) == "last words")
            #expect(try client.readBodyChunk() == nil)
            #expect(eventually { server.openStreams == 0 && server.inFlightRequests == 0 })
            let next = try client.send("GET", "/plain")
            #expect(next.status == 200)
            #expect(next.text == "ok")
            stream.finish()
            #expect(closes.count == 1)
        }
    }

    @Test func clientDisconnectClosesTheStreamOnce() throws {
        let responder = StreamingResponder()
        try withServer(responder) { server in
            let client = try TestClient(port: server.port)
            _ = try client.openStream("GET", "/events")
            let stream = try #require(responder.streams.first)
            let closes = CloseCounter()
            closes.watch(stream)
            #expect(stream.write(Self.event))
            #expect(try client.readBody(until: Self.eventEnd) == Self.event)
            client.close()
            let heartbeat = Data(": heartbeat\n\n".utf8)
            #expect(eventually {
                stream.write(heartbeat)
                return closes.count > 0
            })
            #expect(stream.isClosed)
            #expect(!stream.write(heartbeat))
            #expect(eventually { server.openStreams == 0 && server.inFlightRequests == 0 })
            #expect(closes.count == 1)
        }
    }

    @Test func writeAfterCloseReturnsFalseAndLateHandlersRunAtOnce() {
        let stream = ResponseStream()
        #expect(!stream.isClosed)
        #expect(stream.write(Data("queued".utf8)))
        #expect(stream.write(Data()))
        let closes = CloseCounter()
        closes.watch(stream)
        stream.finish()
        stream.finish()
        #expect(stream.isClosed)
        #expect(closes.count == 1)
        #expect(!stream.write(Data("dropped".utf8)))
        closes.watch(stream)
        #expect(closes.count == 2)
    }

    @Test func dataWrittenBeforeTheResponseIsQueuedIsDelivered() throws {
        let early = Data("retry: 1000\n\n".utf8)
        let responder = StreamingResponder(early: early)
        try withServer(responder) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            _ = try client.openStream("GET", "/events")
            #expect(try client.readBody(until: Self.eventEnd) == early)
            let stream = try #require(responder.streams.first)
            #expect(stream.write(Self.event))
            #expect(try client.readBody(until: Self.eventEnd) == Self.event)
        }
    }

    @Test func streamFinishedBeforeItIsSentDeliversItsBytesThenEnds() throws {
        let responder = ClosureResponder { _ in
            let stream = ResponseStream()
            stream.write(Data("one ".utf8))
            stream.write(Data("two".utf8))
            stream.finish()
            return Response(status: 200, stream: stream)
        }
        try withServer(responder) { server in
            let response = try httpRequest(port: server.port, "GET", "/done")
            #expect(response.status == 200)
            #expect(response.headers["Transfer-Encoding"]?.lowercased() == "chunked")
            #expect(response.text == "one two")
            #expect(eventually { server.openStreams == 0 && server.inFlightRequests == 0 })
        }
    }

    @Test func headAndNoContentCloseTheStream() throws {
        let opened = Mutex<[ResponseStream]>([])
        let responder = ClosureResponder { request in
            let stream = ResponseStream()
            opened.withLock { $0.append(stream) }
            return Response(status: request.path == "/empty" ? 204 : 200, stream: stream)
        }
        try withServer(responder) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            let head = try client.send("HEAD", "/events")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            let empty = try client.send("GET", "/empty")
            #expect(empty.status == 204)
            #expect(eventually { opened.withLock { $0 }.allSatisfy { $0.isClosed } })
            #expect(opened.withLock { $0.count } == 2)
            #expect(eventually { server.openStreams == 0 && server.inFlightRequests == 0 })
        }
    }

    @Test func aStreamSentTwiceIsAServerError() throws {
        let shared = ResponseStream()
        let responder = ClosureResponder { _ in Response(status: 200, stream: shared) }
        let logs = LogCapture()
        try withServer(responder, logs: logs) { server in
            let first = try TestClient(port: server.port)
            defer { first.close() }
            #expect(try first.openStream("GET", "/a").status == 200)
            let second = try httpRequest(port: server.port, "GET", "/b")
            #expect(second.status == 500)
            shared.write(Data("still first".utf8))
            shared.finish()
            #expect(try first.readBodyChunk() == Data("still first".utf8))
            #expect(try first.readBodyChunk() == nil)
        }
        #expect(logs.all.contains { $0.level == .error })
    }

    /// The stream closes at once; the connection, stuck on a full socket, goes at the connection timeout.
    @Test func slowClientWithTooMuchQueuedIsDisconnected() throws {
        let responder = StreamingResponder()
        try withServer(responder, configure: { $0.connectionTimeout = 1 }) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            _ = try client.openStream("GET", "/events")
            let stream = try #require(responder.streams.first)
            let closes = CloseCounter()
            closes.watch(stream)
            let block = Data(repeating: 0x61, count: 1024 * 1024)
            var accepted = 0
            while stream.write(block), accepted < 64 {
                accepted += 1
            }
            #expect(accepted < 64)
            #expect(stream.isClosed)
            #expect(closes.count == 1)
            #expect(eventually { server.openStreams == 0 && server.inFlightRequests == 0 })
        }
    }
}
