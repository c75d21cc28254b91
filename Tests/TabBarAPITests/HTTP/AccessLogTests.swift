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
        let format = /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{4} info tabconfig: bytes=[0-9]+ duration_ms=.*/
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

    /// Every line of `log` parsed as a JSON object; fails on a line that is not one.
    private static func jsonLines(_ log: String) throws -> [[String: Any]] {
        try log.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }

    @Test("--log-format json: every line parses, and a request id goes from header to log line to problem body")
    func jsonLinesAndRequestID() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(dataDirectory: directory, arguments: ["--log-format", "json"])
        let client = try TestClient(port: server.port)
        let missing = try client.send("GET", "/v1/clients/nobody/tabs", headers: [("X-Request-Id", "trace-7f3a")])
        #expect(missing.status == 404)
        #expect(missing.headers["X-Request-Id"] == "trace-7f3a")
        let problem = try #require(try missing.json() as? [String: Any])
        #expect(problem["instance"] as? String == "trace-7f3a")
        let tabs = try client.send("GET", "/v1/clients/ios-phone/tabs")
        let generated = try #require(tabs.headers["X-Request-Id"])
        client.close()
        #expect(server.stop() == 0)

        let lines = try Self.jsonLines(server.log)
        let started = try #require(lines.first { ($0["message"] as? String)?.hasPrefix("listening on") == true })
        #expect(started["level"] as? String == "notice")
        #expect((started["timestamp"] as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        let requests = lines.filter { $0["message"] as? String == "request" }
        try #require(requests.count == 2)
        #expect(requests[0]["request_id"] as? String == "trace-7f3a")
        #expect(requests[0]["status"] as? Int == 404)
        #expect(requests[0]["route"] as? String == "/v1/clients/{client}/tabs")
        #expect(requests[0]["bytes"] as? Int == missing.body.count)
        #expect(requests[1]["request_id"] as? String == generated)
        #expect(requests[1]["bytes"] as? Int == tabs.body.count)
        #expect(requests.allSatisfy { $0["duration_ms"] is Double || $0["duration_ms"] is Int })
    }

    @Test("TABCONFIG_LOG_LEVEL=notice drops info lines and the access log; a bad level or format is refused at start")
    func levels() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(
            dataDirectory: directory, arguments: [], environment: ["TABCONFIG_LOG_LEVEL": "notice"])
        #expect(try httpRequest(port: server.port, "GET", "/v1/clients/ios-phone/tabs").status == 200)
        #expect(server.stop() == 0)
        #expect(Self.lines(server.log).isEmpty)
        #expect(!server.log.contains(" info "), "\(server.log)")
        #expect(server.log.contains("[TabBarAPI] listening on"))
        for arguments in [["--log-level", "loud"], ["--log-format", "xml"]] {
            let (status, output) = try ServerProcess.run(["serve", "--port", "0", "--data-dir", directory.path] + arguments)
            #expect(status != 0)
            #expect(output.contains("log level must be") || output.contains("log format must be"), "\(output)")
        }
    }
}
