import Foundation
import Logging
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing
import TestSupport

@Suite("Server: many open streams")
struct ServerStreamLoadTests {
    private static let eventEnd = Data("\n\n".utf8)

    /// Opens `count` event streams, each on its own connection, and waits until the server holds all of them.
    private static func openStreams(_ count: Int, on server: Server, responder: StreamingResponder) throws -> [TestClient] {
        var clients: [TestClient] = []
        for _ in 0..<count {
            let client = try TestClient(port: server.port)
            let head = try client.openStream("GET", "/events")
            #expect(head.status == 200)
            clients.append(client)
        }
        #expect(eventually { responder.streams.count == count && server.openStreams == count })
        return clients
    }

    @Test func everyOneOf200SubscribersReceivesEveryWriteInOrder() throws {
        let responder = StreamingResponder()
        try withServer(responder) { server in
            let clients = try Self.openStreams(200, on: server, responder: responder)
            defer { clients.forEach { $0.close() } }
            let events = [7, 8].map { Data("id: \($0)\ndata: {\"version\":\($0)}\n\n".utf8) }
            for event in events {
                for stream in responder.streams {
                    #expect(stream.write(event))
                }
            }
            var received = 0
            for client in clients
            where try events.allSatisfy({ try client.readBody(until: Self.eventEnd) == $0 }) {
                received += 1
            }
            #expect(received == 200)
        }
    }

    @Test func ordinaryRequestsAreServedWhile200StreamsAreOpen() throws {
        let responder = StreamingResponder()
        try withServer(responder) { server in
            let clients = try Self.openStreams(200, on: server, responder: responder)
            defer { clients.forEach { $0.close() } }
            let port = server.port
            let workers = (0..<4).map { _ in
                BackgroundWork { () throws -> Int in
                    let client = try TestClient(port: port)
                    defer { client.close() }
                    var succeeded = 0
                    for _ in 0..<25 where try client.send("GET", "/plain").text == "ok" {
                        succeeded += 1
                    }
                    return succeeded
                }
            }
            let results = try workers.map { try $0.value() }
            #expect(results == [25, 25, 25, 25])
            #expect(try httpRequest(port: port, "GET", "/one-shot").status == 200)
            let event = Data("data: still streaming\n\n".utf8)
            for stream in responder.streams {
                #expect(stream.write(event))
            }
            for client in clients {
                #expect(try client.readBody(until: Self.eventEnd) == event)
            }
        }
    }

    /// Writers on several threads, clients vanishing and streams finishing all at once: nothing is lost or reordered
    /// for the clients that stay, every stream closes exactly once, and the server ends up holding nothing.
    @Test func concurrentWritersDisconnectsAndFinishesAreSafe() throws {
        let responder = StreamingResponder()
        try withServer(responder) { server in
            let clients = try Self.openStreams(40, on: server, responder: responder)
            defer { clients.forEach { $0.close() } }
            let streams = responder.streams
            let closes = CloseCounter()
            streams.forEach(closes.watch)
            let rounds = 200
            let writers = (0..<4).map { writer in
                BackgroundWork { () -> Int in
                    var accepted = 0
                    for round in 0..<rounds {
                        for stream in streams where stream.write(Data("data: \(writer) \(round)\n\n".utf8)) {
                            accepted += 1
                        }
                    }
                    return accepted
                }
            }
            for (index, client) in clients.enumerated() where index.isMultiple(of: 2) {
                client.close()
            }
            let accepted = try writers.map { try $0.value() }
            #expect(accepted.allSatisfy { $0 >= rounds * clients.count / 2 })
            streams.forEach { $0.finish() }
            #expect(closes.count == clients.count)
            for (index, client) in clients.enumerated() where !index.isMultiple(of: 2) {
                var body = Data()
                while let chunk = try client.readBodyChunk() {
                    body.append(chunk)
                }
                var next = [0, 0, 0, 0]
                var inOrder = true
                for event in String(decoding: body, as: UTF8.self).split(separator: "\n\n") {
                    let fields = event.dropFirst("data: ".count).split(separator: " ").compactMap { Int($0) }
                    guard fields.count == 2, next.indices.contains(fields[0]), next[fields[0]] == fields[1] else {
                        inOrder = false
                        break
                    }
                    next[fields[0]] += 1
                }
                #expect(inOrder)
                #expect(next == [rounds, rounds, rounds, rounds])
            }
            #expect(eventually { server.openStreams == 0 && server.inFlightRequests == 0 })
        }
    }

    @Test func shutdownFinishesOpenStreamsAndCompletes() throws {
        let responder = StreamingResponder()
        let logs = LogCapture()
        var configuration = Server.Configuration()
        configuration.port = 0
        let server = Server(configuration: configuration, responder: responder, logger: logs.logger)
        try server.start()
        let clients = try Self.openStreams(100, on: server, responder: responder)
        defer { clients.forEach { $0.close() } }
        let closes = CloseCounter()
        let streams = responder.streams
        for stream in streams {
            closes.watch(stream)
        }
        let stopping = Data("event: stopping\n\n".utf8)
        for stream in streams.prefix(10) {
            #expect(stream.write(stopping))
        }
        server.shutdown(gracePeriod: .seconds(60))
        #expect(closes.count == 100)
        #expect(streams.allSatisfy { $0.isClosed })
        #expect(server.inFlightRequests == 0)
        #expect(server.openStreams == 0)
        #expect(!logs.all.contains { $0.level >= .warning }, "shutdown waited for the grace period")
        for (index, client) in clients.enumerated() {
            var body = Data()
            while let chunk = try client.readBodyChunk() {
                body.append(chunk)
            }
            #expect(body == (index < 10 ? stopping : Data()))
        }
        #expect(!streams[0].write(stopping))
    }

    @Test func droppingARunningServerWithSuspendedStreamsIsSafe() throws {
        let responder = StreamingResponder()
        var configuration = Server.Configuration()
        configuration.port = 0
        var server: Server? = Server(configuration: configuration, responder: responder, logger: LogCapture().logger)
        try server?.start()
        let port = try #require(server?.port)
        let client = try TestClient(port: port)
        defer { client.close() }
        _ = try client.openStream("GET", "/events")
        #expect(eventually { responder.streams.count == 1 })
        server = nil
        #expect(responder.streams.allSatisfy { $0.isClosed })
        while (try? client.readBodyChunk()) != nil {}
        #expect(eventually { client.isClosedByPeer })
    }

    /// Suspended streams hold no thread: with one worker thread and 50 idle streams, ordinary requests are served and
    /// every stream still delivers afterwards. (The CPU idle streams cost is measured by `Benchmarks/streams.py`.)
    @Test func idleStreamsHoldNoWorkerThread() throws {
        let responder = StreamingResponder()
        try withServer(responder, configure: { $0.threadPoolSize = 1 }) { server in
            let clients = try Self.openStreams(50, on: server, responder: responder)
            defer { clients.forEach { $0.close() } }
            let client = try TestClient(port: server.port)
            defer { client.close() }
            var served = 0
            for _ in 0..<10 where try client.send("GET", "/plain").text == "ok" {
                served += 1
            }
            #expect(served == 10)
            let event = Data("data: once\n\n".utf8)
            for stream in responder.streams {
                #expect(stream.write(event))
            }
            for client in clients {
                #expect(try client.readBody(until: Self.eventEnd) == event)
            }
            #expect(server.openStreams == 50)
        }
    }
}
