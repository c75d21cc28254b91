import Foundation
import MicroHTTPTesting
import Synchronization
import TestSupport
import Testing

/// The access log and the request metrics of the real executable stay complete under load: many connections at
/// once, each request one access-log line and one count, none lost and none doubled.
@Suite("access log and metrics under load")
struct ObservabilityUnderLoadTests {
    /// Connections sending at once, and requests each sends (back to back, keep-alive).
    static let connections = 8
    static let requestsPerConnection = 300

    /// What request `index` of a connection asks for: the default tab bar (200), its revalidation (304), or a path
    /// no route takes (404), in turn.
    static func request(_ index: Int) -> (target: String, headers: [(String, String)], status: Int) {
        switch index % 3 {
        case 0: ("/v1/clients/ios-phone/tabs", [], 200)
        case 1: ("/v1/clients/ios-phone/tabs", [("If-None-Match", "\"t1-en\"")], 304)
        default: ("/nowhere/\(index)", [], 404)
        }
    }

    /// The value of the sample line starting with `series` (name and labels) in `text`, 0 when it has none.
    private static func value(_ series: String, in text: String) -> Int {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
            .flatMap { Double($0.dropFirst(series.count + 1)) }.map { Int($0) } ?? 0
    }

    @Test("8 connections at once: every request is one access-log line and one count in http_requests_total")
    func everyRequestCounted() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(dataDirectory: directory)
        let failures = Mutex<[String]>([])
        let port = server.port
        DispatchQueue.concurrentPerform(iterations: Self.connections) { connection in
            do {
                let client = try TestClient(port: port)
                defer { client.close() }
                for index in 0..<Self.requestsPerConnection {
                    let request = Self.request(index)
                    let status = try client.send("GET", request.target, headers: request.headers).status
                    if status != request.status {
                        failures.withLock { $0.append("connection \(connection), request \(index): \(status)") }
                    }
                }
            } catch {
                failures.withLock { $0.append("connection \(connection): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(5))")

        var expected: [Int: Int] = [:]
        for index in 0..<Self.requestsPerConnection {
            expected[Self.request(index).status, default: 0] += Self.connections
        }
        let tabs = #"http_requests_total{method="GET",route="/v1/clients/{client}/tabs",status="#
        let unmatched = #"http_requests_total{method="GET",route="unmatched",status="404"}"#
        // A request is counted when libmicrohttpd reports it complete, which may come after the client has read the
        // answer: scrape until every request shows, then require exactly that.
        var scrape = try httpRequest(port: server.port, "GET", "/metrics").text
        let deadline = Date().addingTimeInterval(10)
        while Self.value(tabs + #""200"}"#, in: scrape) < expected[200]!
            || Self.value(tabs + #""304"}"#, in: scrape) < expected[304]!
            || Self.value(unmatched, in: scrape) < expected[404]!,
            Date() < deadline
        {
            Thread.sleep(forTimeInterval: 0.02)
            scrape = try httpRequest(port: server.port, "GET", "/metrics").text
        }
        #expect(Self.value(tabs + #""200"}"#, in: scrape) == expected[200])
        #expect(Self.value(tabs + #""304"}"#, in: scrape) == expected[304])
        #expect(Self.value(unmatched, in: scrape) == expected[404])

        #expect(server.stop() == 0)
        var logged: [String: Int] = [:]
        for line in server.log.split(separator: "\n") where line.hasSuffix("[MicroHTTP] request") {
            let route = line.firstMatch(of: /route=(\S+)/)?.1 ?? "?"
            let status = line.firstMatch(of: /status=(\S+)/)?.1 ?? "?"
            logged["\(route) \(status)", default: 0] += 1
        }
        #expect(logged["/v1/clients/{client}/tabs 200"] == expected[200])
        #expect(logged["/v1/clients/{client}/tabs 304"] == expected[304])
        #expect(logged["- 404"] == expected[404])
        let requestIDs = server.log.split(separator: "\n").filter { $0.hasSuffix("[MicroHTTP] request") }
            .compactMap { $0.firstMatch(of: /request_id=(\S+)/).map { String($0.1) } }
        #expect(Set(requestIDs).count == requestIDs.count, "every line has its own request id")
    }
}
