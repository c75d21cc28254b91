import Foundation
import MicroHTTPTesting
import Testing

/// Input an attacker would send: every answer is a clear 4xx (or a normal answer for odd but valid ids), never a
/// 5xx, never a crash, and nothing lands outside the data directory's own files.
@Suite("hostile input")
struct HostileInputTests {
    static let traversals = [
        "..", "%2e%2e", "%2E%2E", ".%2e", "..%2f..%2fetc", "%2f", "a%2fb", "%00", "a%00b", "%5c..%5c",
        String(repeating: "a", count: 300), String(repeating: "%41", count: 200), "%ff%fe", "~", "me%20",
    ]

    static let templates = [
        ("GET", "/v1/clients/{p}/tabs"), ("GET", "/v1/clients/{p}/tabs/events"),
        ("GET", "/v1/clients/{p}/users/u/tabs"), ("GET", "/v1/clients/ios-phone/users/{p}/tabs"),
        ("GET", "/v1/clients/ios-phone/users/{p}/tab-order"), ("PUT", "/v1/clients/ios-phone/users/{p}/tab-order"),
        ("DELETE", "/v1/clients/ios-phone/users/{p}/tab-order"), ("GET", "/v1/clients/{p}/config"),
        ("PUT", "/v1/clients/{p}/config"), ("DELETE", "/v1/clients/{p}/config"),
        ("GET", "/v1/clients/{p}/config/versions"), ("GET", "/v1/clients/ios-phone/config/versions/{p}"),
        ("POST", "/v1/clients/{p}/config/rollback"), ("POST", "/v1/import/plist?client={p}"),
    ]

    @Test("smuggling attempts against a tab-order write: one problem+json 400, the connection closed, nothing saved")
    func smuggling() throws {
        let smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
        let head = "PUT /v1/clients/ios-phone/users/alice/tab-order HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        let attempts = [
            head + "Content-Length: 40\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled,
            head + "Content-Length: 0\r\nContent-Length: 34\r\n\r\n" + smuggled,
            head + "Content-Length : 34\r\n\r\n" + smuggled,
            head + "Transfer-Encoding: xchunked\r\n\r\n" + smuggled,
        ]
        try TestApp.with { app in
            for attempt in attempts {
                let exchange = try RawExchange(port: app.port, request: attempt)
                #expect(exchange.closed)
                #expect(exchange.responses.count == 1, "\(attempt)")
                let response = try #require(exchange.responses.first)
                #expect(response.status == (attempt.contains("xchunked") ? 501 : 400))
                #expect(response.headers["Content-Type"] == "application/problem+json")
            }
            let order = try app.request("GET", "/v1/clients/ios-phone/users/alice/tab-order")
            #expect((try order.json() as? [String: Any])?["revision"] as? Int == 0)
        }
    }

    @Test("path traversal and odd ids in every path parameter never reach the file system")
    func traversal() throws {
        try TestApp.with { app in
            let before = try Self.files(in: app.dataDirectory)
            for (method, template) in Self.templates {
                for value in Self.traversals {
                    let target = template.replacingOccurrences(of: "{p}", with: value)
                    let body = method == "GET" || method == "DELETE" ? nil : Data("{\"order\":[]}".utf8)
                    let response = try app.request(
                        method, target, headers: TestApp.adminJSON, body: body)
                    #expect(response.status < 500, "\(method) \(target) → \(response.status)")
                    if response.status >= 400 {
                        #expect(response.headers["Content-Type"] == "application/problem+json", "\(method) \(target)")
                    }
                }
            }
            let after = try Self.files(in: app.dataDirectory)
            #expect(after == before, "new files: \(after.subtracting(before))")
            #expect(try app.request("GET", "/readyz").status == 200)
        }
    }

    @Test("hostile bodies are 4xx problems and store nothing", arguments: [
        ("non-UTF-8", Data([0x7B, 0x22, 0x6F, 0xFF, 0xFE, 0x22, 0x3A, 0x5B, 0x5D, 0x7D]), 400),
        ("deeply nested", Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8), 400),
        ("deeply nested object", Data((String(repeating: "{\"a\":", count: 50_000) + "1" + String(repeating: "}", count: 50_000)).utf8), 400),
        ("huge number", Data("{\"order\": [1e999999999]}".utf8), 422),
        ("huge integer", Data("{\"order\": [\(String(repeating: "9", count: 5000))]}".utf8), 422),
        ("duplicate keys", Data("{\"order\": [\"home\"], \"order\": [\"search\"]}".utf8), 422),
        ("not an object", Data("[\"home\"]".utf8), 422),
        ("null", Data("null".utf8), 422),
        ("trailing garbage", Data("{\"order\": []} x".utf8), 400),
        ("lone surrogate", Data("{\"order\": [\"\\ud800\"]}".utf8), 400),
    ] as [(String, Data, Int)])
    func hostileBodies(name: String, body: Data, status: Int) throws {
        try TestApp.with { app in
            let path = "/v1/clients/ios-phone/users/mallory/tab-order"
            let response = try app.request("PUT", path, headers: TestApp.json, body: body)
            #expect(response.status == status, "\(name): \(response.status) \(response.text)")
            #expect(response.headers["Content-Type"] == "application/problem+json", "\(name)")
            let config = try app.request("PUT", "/v1/clients/ios-phone/config", headers: TestApp.adminJSON, body: body)
            #expect((400...422).contains(config.status), "\(name) as a config: \(config.status)")
            let stored = try app.request("GET", path)
            #expect((try stored.json() as? [String: Any])?["revision"] as? Int == 0, "\(name)")
        }
    }

    @Test("wrong content types are 415", arguments: [
        "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml",
    ])
    func wrongContentType(contentType: String) throws {
        try TestApp.with { app in
            let body = Data("{\"order\": []}".utf8)
            let order = try app.request(
                "PUT", "/v1/clients/ios-phone/users/u/tab-order", headers: [("Content-Type", contentType)], body: body)
            #expect(order.status == 415)
            let config = try app.request(
                "PUT", "/v1/clients/ios-phone/config", headers: TestApp.admin + [("Content-Type", contentType)], body: body)
            #expect(config.status == 415)
        }
    }

    @Test("oversized headers are refused by the server itself (431/414)")
    func oversizedHeaders() throws {
        try TestApp.with { app in
            let header = try app.request("GET", "/healthz", headers: [("X-Filler", String(repeating: "a", count: 100_000))])
            #expect(header.status == 431)
            let uri = try app.request("GET", "/v1/clients/" + String(repeating: "a", count: 100_000) + "/tabs")
            #expect(uri.status == 414)
            #expect(try app.request("GET", "/healthz").status == 200)
        }
    }

    static func files(in directory: URL) throws -> Set<String> {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var files: Set<String> = []
        while let path = enumerator?.nextObject() as? String {
            files.insert(path)
        }
        return files
    }
}
