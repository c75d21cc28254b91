import Foundation
import MicroHTTP
import MicroHTTPTesting
import TestSupport
import Testing

@testable import TabBarAPI

/// Compressed answers (RFC 9110 §8.4, §12.5.3): prepared answers in gzip and brotli beside identity, chosen by
/// `Accept-Encoding`, each coding with its own strong tag.
@Suite("Compressed answers")
struct CompressionTests {
    /// `data` decompressed by the system's `gzip -dc`: a decoder that is not ours.
    private static func gunzip(_ data: Data) throws -> Data {
        let run = try ChildProcess.run(URL(fileURLWithPath: "/bin/gzip"), ["-dc"], input: data)
        guard run.status == 0 else { throw TestFailure("gzip -dc: \(run.output)") }
        return Data(run.output.utf8)
    }

    @Test("The default tab bar in br and gzip: smaller, own tags, Vary, and gzip decodes to the identity bytes")
    func defaultTabBar() throws {
        try TestApp.with { app in
            let identity = try app.request("GET", "/v1/clients/ios-phone/tabs")
            let brotli = try app.request("GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", "br")])
            let gzip = try app.request(
                "GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", "gzip, deflate")])
            #expect(identity.headers["Content-Encoding"] == nil)
            #expect(brotli.headers["Content-Encoding"] == "br")
            #expect(gzip.headers["Content-Encoding"] == "gzip")
            for response in [identity, brotli, gzip] {
                #expect(response.status == 200)
                #expect(response.headers["Vary"]?.contains("Accept-Encoding") == true)
                #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
            }
            let tag = try #require(identity.headers["ETag"])
            #expect(brotli.headers["ETag"] == String(tag.dropLast()) + ";br\"")
            #expect(gzip.headers["ETag"] == String(tag.dropLast()) + ";gzip\"")
            #expect(brotli.body.count * 100 <= identity.body.count * 25, "\(brotli.body.count) of \(identity.body.count)")
            #expect(gzip.body.count * 100 <= identity.body.count * 28, "\(gzip.body.count) of \(identity.body.count)")
            #expect(try Self.gunzip(gzip.body) == identity.body)

            let preferred = try app.request(
                "GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", "gzip;q=1, br;q=0.5")])
            #expect(preferred.headers["Content-Encoding"] == "gzip", "the higher q wins")
            let equal = try app.request(
                "GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", "gzip, br")])
            #expect(equal.headers["Content-Encoding"] == "br", "at equal q the smaller coding wins")
        }
    }

    @Test("If-None-Match answers 304 with the tag of the coding the request selects, and 200 with another's")
    func revalidation() throws {
        try TestApp.with { app in
            let brotli = try app.request("GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", "br")])
            let tag = try #require(brotli.headers["ETag"])
            let same = try app.request(
                "GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", "br"), ("If-None-Match", tag)])
            #expect(same.status == 304)
            #expect(same.headers["ETag"] == tag)
            #expect(same.headers["Vary"]?.contains("Accept-Encoding") == true)
            #expect(same.headers["Content-Encoding"] == nil, "a 304 carries no body metadata")
            let other = try app.request(
                "GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", tag)])
            #expect(other.status == 200)
            #expect(other.headers["Content-Encoding"] == "gzip")
            let identity = try app.request("GET", "/v1/clients/ios-phone/tabs", headers: [("If-None-Match", tag)])
            #expect(identity.status == 200)
            #expect(identity.headers["Content-Encoding"] == nil)
        }
    }

    @Test("406 only when identity is refused too; codings the service lacks fall back to identity")
    func negotiationLimits() throws {
        try TestApp.with { app in
            for header in ["identity;q=0", "*;q=0", "gzip;q=0, br;q=0, identity;q=0"] {
                let refused = try app.request(
                    "GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", header)])
                #expect(refused.status == 406, "\(header)")
                #expect(refused.headers["Content-Type"] == "application/problem+json", "\(header)")
            }
            for header in ["zstd", "compress, deflate", "", "gzip;q=0", "br;q=2"] {
                let plain = try app.request("GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", header)])
                #expect(plain.status == 200, "\(header)")
                #expect(plain.headers["Content-Encoding"] == nil, "\(header)")
            }
            let star = try app.request(
                "GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", "*;q=0.5, identity;q=0.1")])
            #expect(star.headers["Content-Encoding"] == "br")
        }
    }

    @Test("HEAD gets the selected coding's head; errors are not compressed")
    func headAndErrors() throws {
        try TestApp.with { app in
            let get = try app.request("GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", "br")])
            let head = try app.request("HEAD", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", "br")])
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.headers["Content-Encoding"] == "br")
            #expect(head.headers["ETag"] == get.headers["ETag"])
            #expect(head.headers["Content-Length"] == "\(get.body.count)")
            let missing = try app.request("GET", "/v1/clients/nobody/tabs", headers: [("Accept-Encoding", "br, gzip")])
            #expect(missing.status == 404)
            #expect(missing.headers["Content-Encoding"] == nil)
        }
    }

    @Test("The live config, the OpenAPI document and the console's files come compressed too")
    func otherPreparedAnswers() throws {
        try TestApp.with { app in
            let targets: [(String, [(String, String)])] = [
                ("/v1/clients/ios-phone/config", TestApp.admin), ("/openapi.yaml", []), ("/admin/main.js", []),
            ]
            for (target, headers) in targets {
                let identity = try app.request("GET", target, headers: headers)
                let gzip = try app.request("GET", target, headers: headers + [("Accept-Encoding", "gzip")])
                #expect(identity.status == 200 && gzip.status == 200, "\(target)")
                #expect(gzip.headers["Content-Encoding"] == "gzip", "\(target)")
                #expect(gzip.headers["Content-Type"] == identity.headers["Content-Type"], "\(target)")
                #expect(gzip.headers["ETag"] != identity.headers["ETag"], "\(target)")
                #expect(try Self.gunzip(gzip.body) == identity.body, "\(target)")
            }
        }
    }

    @Test("A write's If-Match and If-None-Match name the resource in any coding: the tag of a compressed read holds")
    func writeConditions() throws {
        try TestApp.with { app in
            let read = try app.request(
                "GET", "/v1/clients/ios-phone/config", headers: TestApp.admin + [("Accept-Encoding", "gzip")])
            let tag = try #require(read.headers["ETag"])
            #expect(tag.hasSuffix(";gzip\""))
            let live = try #require((try JSONSerialization.jsonObject(with: Data(try Self.gunzip(read.body))))
                as? [String: Any])
            let document = try #require(live["config"])
            let stale = try app.request(
                "PUT", "/v1/clients/ios-phone/config", headers: TestApp.admin + [("If-None-Match", tag)], json: document)
            #expect(stale.status == 412, "If-None-Match naming the live version in gzip refuses the write")
            let written = try app.request(
                "PUT", "/v1/clients/ios-phone/config", headers: TestApp.admin + [("If-Match", tag)], json: document)
            #expect(written.status == 201, "\(written.text)")
            let again = try app.request(
                "PUT", "/v1/clients/ios-phone/config", headers: TestApp.admin + [("If-Match", tag)], json: document)
            #expect(again.status == 412, "the tag names version 1, no longer live")
        }
    }

    /// The `tabconfig_compressed_bodies` series of `effort` in the metrics of the server on `port`.
    private static func compressed(_ effort: String, port: Int) throws -> Int {
        let metrics = try httpRequest(port: port, "GET", "/metrics")
        let series = "tabconfig_compressed_bodies{effort=\"\(effort)\"} "
        let line = try #require(metrics.text.split(separator: "\n").first { $0.hasPrefix(series) })
        return try #require(Double(line.dropFirst(series.count)).map { Int($0) })
    }

    /// Waits up to 10 s for the server on `port` to have compressed `count` bodies at the best effort; the count.
    private static func bestCompressions(reaching count: Int, port: Int) throws -> Int {
        let deadline = Date().addingTimeInterval(10)
        var seen = try compressed("best", port: port)
        while seen < count, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            seen = try compressed("best", port: port)
        }
        return seen
    }

    @Test("Reused answers compress nothing; an answer is compressed fast once, and at best once when used again")
    func noCompressionPerRequest() throws {
        let directory = try TemporaryDirectory("compression")
        defer { directory.remove() }
        let server = try ServerProcess(dataDirectory: directory.child("data"))
        defer { _ = server.stop() }
        let (fast, best) = (try Self.compressed("fast", port: server.port), try Self.compressed("best", port: server.port))
        func get(_ coding: String) throws -> TestResponse {
            try httpRequest(port: server.port, "GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Encoding", coding)])
        }
        let first = try get("br")
        #expect(try Self.compressed("fast", port: server.port) == fast + 2, "one answer, its gzip and brotli forms")
        #expect(try Self.compressed("best", port: server.port) == best, "nothing at the best effort on a request")
        _ = try get("br")
        #expect(try Self.bestCompressions(reaching: best + 2, port: server.port) == best + 2, "used again: made at best")
        let upgraded = try get("br")
        #expect(upgraded.headers["ETag"] == first.headers["ETag"], "one tag for the coding")
        #expect(upgraded.body.count < first.body.count, "\(upgraded.body.count) < \(first.body.count)")
        for coding in Array(repeating: ["br", "gzip", "gzip, br", "identity"], count: 50).joined() {
            #expect(try get(coding).status == 200)
        }
        #expect(try Self.compressed("fast", port: server.port) == fast + 2, "200 more requests compressed nothing")
        #expect(try Self.compressed("best", port: server.port) == best + 2)
    }

    /// A config whose 13 tabs each show on their own `attr.f<i>`: 8,192 targeting outcomes, any of them asked for
    /// without a token.
    static var manyOutcomes: [String: Any] {
        [
        "tabs": (0..<13).map { index in
            [
                "id": "t\(index)", "title": ["default": "T\(index)"],
                "destination": ["type": "viewController", "name": "T\(index)ViewController"],
                "when": ["attr.f\(index)": ["$in": ["1"]]],
            ] as [String: Any]
        } + [["id": "home", "title": ["default": "Home"], "destination": ["type": "viewController", "name": "Home"]]]
        ]
    }

    /// The query asking for outcome `index`: `attr.f<i>=1` for each bit `i` set.
    static func outcomeQuery(_ index: Int) -> String {
        (0..<13).map { "attr.f\($0)=\(index >> $0 & 1)" }.joined(separator: "&")
    }

    @Test("A flood of outcomes past the cache compresses none at the best effort, and a new outcome is still kept")
    func floodOfOutcomes() throws {
        let directory = try TemporaryDirectory("compression-flood")
        defer { directory.remove() }
        let server = try ServerProcess(
            dataDirectory: directory.child("data"), environment: ["TABCONFIG_ADMIN_TOKEN": TestApp.adminToken])
        defer { _ = server.stop() }
        let published = try httpRequest(
            port: server.port, "PUT", "/v1/clients/flood/config",
            headers: TestApp.admin + [("Content-Type", "application/json")],
            body: try JSONSerialization.data(withJSONObject: Self.manyOutcomes))
        try #require(published.status == 201, "\(published.text)")
        func get(_ index: Int) throws -> TestResponse {
            try httpRequest(
                port: server.port, "GET", "/v1/clients/flood/tabs?" + Self.outcomeQuery(index),
                headers: [("Accept-Encoding", "br, gzip")])
        }
        let (fast, best) = (try Self.compressed("fast", port: server.port), try Self.compressed("best", port: server.port))
        // Outcomes with few tabs have bodies too small to compress: count the ones sent in brotli.
        var compressedOutcomes = 0
        for index in 0..<4_400 {
            let response = try get(index)
            #expect(response.status == 200, "outcome \(index)")
            if response.headers["Content-Encoding"] == "br" { compressedOutcomes += 1 }
        }
        #expect(compressedOutcomes > VersionCache.maximumEntries, "the flood outgrows the cache")
        #expect(
            try Self.compressed("fast", port: server.port) == fast + 2 * compressedOutcomes,
            "each outcome compressed once, fast")
        #expect(try Self.compressed("best", port: server.port) == best, "none at the best effort")

        let late = 8_191
        _ = try get(late)
        _ = try get(late)
        #expect(try Self.bestCompressions(reaching: best + 2, port: server.port) == best + 2)
        _ = try get(late)
        #expect(
            try Self.compressed("fast", port: server.port) == fast + 2 * compressedOutcomes + 2, "a new outcome is kept")
        #expect(try Self.compressed("best", port: server.port) == best + 2)
    }
}
