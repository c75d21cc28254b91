import Foundation
import Logging
import MicroHTTP
import Synchronization
import Testing
import TestSupport

@testable import TabConfigClient

/// The event stream against servers that fail it, a thousand times each: a 500 with a problem document, a stream
/// cut off mid-event, a request never answered and given up by the app going inactive. The client must neither
/// crash nor lose what the server said.
@Suite("TabBarClient: the event stream against failing servers")
struct TabBarClientEventFaultTests {
    private static let cycles = 1_000

    @Test("1,000 connections answered 500: each reported with the service's problem, no crash")
    func serverErrors() async throws {
        let server = try FailingEventServer(.serverError)
        defer { server.stop() }
        let client = TabBarClient(configuration: server.configuration())
        await client.setActive(true)
        #expect(await server.waitForEventRequests(Self.cycles))
        let reported = await client.status { status in
            guard case .server(500, let problem)? = status.lastError else { return false }
            return problem?.detail == FailingEventServer.problemDetail
        }
        #expect(reported != nil, "last error: \(String(describing: client.status.lastError))")
        await client.shutdown()
    }

    @Test("1,000 streams cut off in the middle of an event: each reconnected, no crash")
    func streamsCutOff() async throws {
        let server = try FailingEventServer(.closesMidStream)
        defer { server.stop() }
        let client = TabBarClient(configuration: server.configuration())
        await client.setActive(true)
        #expect(await server.waitForEventRequests(Self.cycles))
        await client.shutdown()
    }

    @Test("1,000 requests never answered, each given up as the app goes inactive: no crash")
    func neverAnswered() async throws {
        let server = try FailingEventServer(.neverAnswers)
        defer { server.stop() }
        let client = TabBarClient(configuration: server.configuration())
        for cycle in 1...Self.cycles {
            await client.setActive(true)
            let asked = await server.waitForEventRequests(cycle)
            await client.setActive(false)
            guard asked else {
                Issue.record("the event stream was not requested in cycle \(cycle)")
                break
            }
        }
        await client.shutdown()
        #expect(server.eventRequests == Self.cycles)
    }
}

/// A MicroHTTP server whose event stream fails as its mode says; every other request gets 404.
final class FailingEventServer: Sendable {
    enum Mode: Sendable {
        /// 500 with a problem document.
        case serverError
        /// 200, part of an event, then the end of the stream.
        case closesMidStream
        /// No answer until the server stops.
        case neverAnswers
    }

    static let problemDetail = "The event hub failed; try again."

    private let server: Server
    private let responder: Responder

    init(_ mode: Mode) throws {
        responder = Responder(mode: mode)
        var configuration = Server.Configuration()
        configuration.port = 0
        configuration.threadPoolSize = 2
        server = Server(configuration: configuration, responder: responder, logger: .silent)
        try server.start()
    }

    /// Event-stream requests received so far.
    var eventRequests: Int { responder.requests.load(ordering: .relaxed) }

    /// A client configuration for this server: user `u` of client `app`, retrying within milliseconds.
    func configuration() -> TabBarClient.Configuration {
        TabBarClient.Configuration(
            baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, client: "app", user: .id("u"),
            storageDirectory: FileManager.default.temporaryDirectory
                .appendingPathComponent("failing-events-\(UUID().uuidString)"),
            retryPolicy: TabBarClient.RetryPolicy(baseDelay: .milliseconds(1), maxDelay: .milliseconds(2)),
            requestTimeout: .seconds(10))
    }

    /// Waits (polling every millisecond, for at most 120 s) until `count` event-stream requests have arrived.
    func waitForEventRequests(_ count: Int) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while eventRequests < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return eventRequests >= count
    }

    func stop() {
        server.shutdown(gracePeriod: .seconds(1))
    }

    private final class Responder: MicroHTTP.Responder {
        let mode: Mode
        let requests = Atomic<Int>(0)

        init(mode: Mode) {
            self.mode = mode
        }

        func respond(to request: Request) -> Response {
            guard request.path.hasSuffix("/tabs/events") else { return Response(status: 404) }
            requests.add(1, ordering: .relaxed)
            switch mode {
            case .serverError:
                let problem = #"{"type":"about:blank","title":"Internal server error","status":500,"#
                    + #""detail":"\#(FailingEventServer.problemDetail)"}"#
                return Response(
                    status: 500, headers: ["Content-Type": "application/problem+json"], body: Data(problem.utf8))
            case .closesMidStream:
                let stream = ResponseStream()
                stream.write(Data("id: 7\nevent: version\ndata: {\"vers".utf8))
                stream.finish()
                return Response(status: 200, headers: ["Content-Type": "text/event-stream"], stream: stream)
            case .neverAnswers:
                return Response(deferred: DeferredResponse())
            }
        }
    }
}
