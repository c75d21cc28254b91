import Foundation
import Logging
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing
import TestSupport

@Suite("Server: lifecycle and load")
struct ServerLifecycleTests {
    @Test func gracefulShutdownLetsInFlightRequestFinish() throws {
        let started = Atomic<Bool>(false)
        let responder = ClosureResponder { request in
            if request.path == "/slow" {
                started.store(true, ordering: .relaxed)
                Thread.sleep(forTimeInterval: 0.3)
            }
            return Response(status: 200, body: Data("done \(request.path)".utf8))
        }
        var configuration = Server.Configuration()
        configuration.port = 0
        let server = Server(configuration: configuration, responder: responder, logger: LogCapture().logger)
        try server.start()
        let port = server.port
        let slow = BackgroundWork { try httpRequest(port: port, "GET", "/slow") }
        #expect(eventually { started.load(ordering: .relaxed) && server.inFlightRequests == 1 })
        server.shutdown(gracePeriod: .seconds(10))
        let response = try slow.value()
        #expect(response.status == 200)
        #expect(response.text == "done /slow")
        #expect(server.inFlightRequests == 0)
        #expect(throws: (any Error).self) { try httpRequest(port: port, "GET", "/after") }
        server.shutdown()
    }

    @Test func shutdownClosesIdleKeepAliveConnections() throws {
        var configuration = Server.Configuration()
        configuration.port = 0
        let server = Server(
            configuration: configuration,
            responder: ClosureResponder { _ in Response(status: 200, body: Data("ok".utf8)) },
            logger: LogCapture().logger
        )
        try server.start()
        let client = try TestClient(port: server.port)
        defer { client.close() }
        #expect(try client.send("GET", "/").status == 200)
        #expect(!client.isClosedByPeer)
        server.shutdown()
        #expect(eventually { client.isClosedByPeer })
    }

    @Test func servesWithASingleThread() throws {
        let responder = ClosureResponder { request in Response(status: 200, body: request.body) }
        try withServer(responder, configure: { $0.threadPoolSize = 1 }) { server in
            let client = try TestClient(port: server.port)
            defer { client.close() }
            for index in 0..<20 {
                let response = try client.send("POST", "/", body: Data("\(index)".utf8))
                #expect(response.text == "\(index)")
            }
        }
    }

    @Test func shutdownBeforeStartAndTwiceIsHarmless() throws {
        let server = Server(
            configuration: Server.Configuration(),
            responder: ClosureResponder { _ in Response(status: 200) },
            logger: LogCapture().logger
        )
        server.shutdown()
        server.shutdown()
        #expect(throws: ServerError.self) { try server.start() }
    }

    @Test func portInUseIsAServerError() throws {
        let responder = ClosureResponder { _ in Response(status: 200) }
        try withServer(responder) { first in
            var configuration = Server.Configuration()
            configuration.port = first.port
            let second = Server(configuration: configuration, responder: responder, logger: LogCapture().logger)
            do {
                try second.start()
                Issue.record("the second server started on a port in use")
                second.shutdown()
            } catch let error as ServerError {
                #expect(error.description.contains("\(first.port)"))
                #expect(error.description.lowercased().contains("in use"))
            } catch {
                Issue.record("unexpected error: \(error)")
            }
            let response = try httpRequest(port: first.port, "GET", "/")
            #expect(response.status == 200)
        }
    }

    @Test func servesOnAListenerBoundBeforehand() throws {
        let responder = ClosureResponder { _ in Response(status: 200, body: Data("bound first".utf8)) }
        let listener = try Listener(host: "127.0.0.1", port: 0)
        #expect(throws: ServerError.self) { try Listener(host: "127.0.0.1", port: listener.port) }
        let logs = LogCapture()
        let server = Server(configuration: Server.Configuration(), responder: responder, logger: logs.logger, listener: listener)
        try server.start()
        defer { server.shutdown() }
        #expect(server.port == listener.port)
        #expect(try httpRequest(port: listener.port, "GET", "/").text == "bound first")
        let second = Server(configuration: Server.Configuration(), responder: responder, logger: logs.logger, listener: listener)
        #expect(throws: ServerError.self) { try second.start() }
    }

    @Test(arguments: ["localhost", "300.1.1.1", ""])
    func badHostIsAServerError(host: String) {
        var configuration = Server.Configuration()
        configuration.host = host
        configuration.port = 0
        let server = Server(
            configuration: configuration,
            responder: ClosureResponder { _ in Response(status: 200) },
            logger: LogCapture().logger
        )
        #expect(throws: ServerError.self) { try server.start() }
    }

    @Test func servesOnIPv6Loopback() throws {
        let responder = ClosureResponder { request in
            Response(status: 200, body: Data((request.remoteAddress ?? "-").utf8))
        }
        var configuration = Server.Configuration()
        configuration.host = "::1"
        configuration.port = 0
        let server = Server(configuration: configuration, responder: responder, logger: LogCapture().logger)
        do {
            try server.start()
        } catch {
            return
        }
        defer { server.shutdown() }
        let client = try TestClient(host: "::1", port: server.port)
        defer { client.close() }
        let response = try client.send("GET", "/")
        #expect(response.status == 200)
        #expect(response.text == "::1")
    }

    @Test func startLogsNothingAboveDebug() throws {
        let logs = LogCapture()
        try withServer(ClosureResponder { _ in Response(status: 200) }, logs: logs) { server in
            let response = try httpRequest(port: server.port, "GET", "/")
            #expect(response.status == 200)
        }
        #expect(logs.all.allSatisfy { $0.level <= .debug })
    }

    @Test func manyConcurrentClientsAllSucceed() throws {
        let handled = Atomic<Int>(0)
        let responder = ClosureResponder { request in
            handled.add(1, ordering: .relaxed)
            return Response(status: 200, headers: ["Content-Type": "text/plain"], body: request.body)
        }
        try withServer(responder) { server in
            let port = server.port
            let workers = (0..<8).map { worker in
                BackgroundWork { () throws -> Int in
                    let keepAlive = worker.isMultiple(of: 2)
                    let client = keepAlive ? try TestClient(port: port) : nil
                    defer { client?.close() }
                    var succeeded = 0
                    for index in 0..<50 {
                        let payload = Data("worker \(worker) request \(index)".utf8)
                        let response = try client?.send("POST", "/w/\(worker)", body: payload)
                            ?? httpRequest(port: port, "POST", "/w/\(worker)", body: payload)
                        if response.status == 200, response.body == payload {
                            succeeded += 1
                        }
                    }
                    return succeeded
                }
            }
            let results = try workers.map { try $0.value() }
            #expect(results == Array(repeating: 50, count: 8))
            #expect(handled.load(ordering: .relaxed) == 400)
        }
    }
}
