import Foundation
import MicroHTTPTesting
import TestSupport
import Testing

/// The access log of the real executable: one line per request, on by default, off with `--no-access-log`.
@Suite("access log")
struct AccessLogTests {
    /// The `key=value` fields of the access-log lines in `log`, in order.
    private static func lines(_ log: String) -> [[String: String]] {
        log.split(separator: "\n").filter { $0.hasSuffix("[MicroHTTP] request") }.map { line in
            var fields: [String: String] = [:]
            for word in line.split(separator: " ") {
                let parts = word.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
            }
            return fields
        }
    }

    /// Polls until the server has written `count` access-log lines (it writes each when the request completes).
    private static func waitForLines(_ server: ServerProcess, count: Int) -> [[String: String]] {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, lines(server.log).count < count {
            Thread.sleep(forTimeInterval: 0.02)
        }
        return lines(server.log)
    }

    @Test("each request is one line with method, route, status, duration and request id, 4xx and writes included")
    func linePerRequest() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(dataDirectory: directory)
        defer { _ = server.stop() }
        // One connection: each request's line is written before the next request is read.
        let client = try TestClient(port: server.port)
        defer { client.close() }
        let json = [("Content-Type", "application/json")]
        #expect(try client.send("GET", "/v1/clients/ios-phone/tabs", headers: [("X-Request-ID", "app-42")]).status == 200)
        #expect(try client.send("GET", "/v1/clients/ios-phone/tabs", headers: [("If-None-Match", "\"t1-en\"")]).status == 304)
        let order = Data(#"{"order":["search"]}"#.utf8)
        #expect(try client.send("PUT", "/v1/clients/ios-phone/users/alice/tab-order", headers: json, body: order).status == 200)
        let malformed = Data(#"{"order":"#.utf8)
        #expect(try client.send("PUT", "/v1/clients/ios-phone/users/alice/tab-order", headers: json, body: malformed).status == 400)
        #expect(try client.send("GET", "/nowhere").status == 404)

        let lines = Self.waitForLines(server, count: 5)
        try #require(lines.count == 5)
        #expect(lines.map { $0["method"] } == ["GET", "GET", "PUT", "PUT", "GET"])
        #expect(lines.map { $0["status"] } == ["200", "304", "200", "400", "404"])
        #expect(
            lines.map { $0["route"] } == [
                "/v1/clients/{client}/tabs", "/v1/clients/{client}/tabs",
                "/v1/clients/{client}/users/{user}/tab-order", "/v1/clients/{client}/users/{user}/tab-order", "-",
            ])
        #expect(lines[0]["request_id"] == "app-42")
        let generated = lines.dropFirst().compactMap { $0["request_id"] }
        #expect(Set(generated).count == 4, "generated ids are distinct: \(generated)")
        #expect(lines.allSatisfy { ($0["duration_ms"] ?? "").wholeMatch(of: /[0-9]+\.[0-9]{3}/) != nil }, "\(lines)")
        let raw = server.log.split(separator: "\n").filter { $0.hasSuffix("[MicroHTTP] request") }
        let format = /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{4} info tabconfig: duration_ms=.*/
        #expect(raw.allSatisfy { $0.wholeMatch(of: format) != nil }, "the other log lines' format: \(raw)")
        #expect(!server.log.contains("alice"), "the route, not the path, is logged")
    }

    @Test("lines still waiting to be written when SIGTERM comes are written before the process exits")
    func flushedOnExit() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(dataDirectory: directory)
        let client = try TestClient(port: server.port)
        for _ in 0..<20 {
            #expect(try client.send("GET", "/v1/clients/ios-phone/tabs").status == 200)
        }
        client.close()
        #expect(server.stop() == 0)
        #expect(Self.lines(server.log).count == 20)
    }

    @Test("--no-access-log and TABCONFIG_ACCESS_LOG=false turn it off")
    func off() throws {
        for (arguments, environment) in [(["--no-access-log"], [:]), ([], ["TABCONFIG_ACCESS_LOG": "false"])] {
            let directory = try TemporaryDirectory().url
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = try ServerProcess(dataDirectory: directory, arguments: arguments, environment: environment)
            #expect(try httpRequest(port: server.port, "GET", "/v1/clients/ios-phone/tabs").status == 200)
            #expect(try httpRequest(port: server.port, "GET", "/healthz").status == 200)
            #expect(server.stop() == 0)
            #expect(Self.lines(server.log).isEmpty, "\(arguments) \(environment)")
        }
    }
}
