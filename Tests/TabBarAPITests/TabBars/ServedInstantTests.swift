import Foundation
import MicroHTTPTesting
import Testing

/// The instants the API writes itself (`publishedAt`, an audit entry's `time`, explain's `evaluatedAt`): RFC 3339 in
/// whole seconds, UTC, which the default date parsers of apps' platforms read (issue 18).
@Suite("instants the API writes")
struct ServedInstantTests {
    private struct Envelope: Decodable {
        var publishedAt: Date
    }

    /// Every instant of the admin reads after a publish and a rollback, named by where it was read.
    private static func servedInstants(_ app: TestApp) throws -> [(place: String, text: String)] {
        var served: [(String, String)] = []
        func object(_ target: String, method: String = "GET", json: Any? = nil) throws -> [String: Any] {
            let response = try json.map { try app.request(method, target, headers: TestApp.admin, json: $0) }
                ?? app.request(method, target, headers: TestApp.admin)
            #expect((200...201).contains(response.status), "\(method) \(target): \(response.status)")
            return try #require(try response.json() as? [String: Any], "\(target)")
        }
        let config = "/v1/clients/ios-phone/config"
        let published = try object(config, method: "PUT", json: Fixtures.designExample)
        served.append(("PUT config", published["publishedAt"] as? String ?? ""))
        let rolledBack = try object(config + "/rollback", method: "POST", json: ["version": 1])
        served.append(("rollback", rolledBack["publishedAt"] as? String ?? ""))
        served.append(("GET config", try object(config)["publishedAt"] as? String ?? ""))
        served.append(("GET version 2", try object(config + "/versions/2")["publishedAt"] as? String ?? ""))
        for entry in try object(config + "/versions")["versions"] as? [[String: Any]] ?? [] {
            served.append(("versions", entry["publishedAt"] as? String ?? ""))
        }
        for entry in try object("/v1/clients")["clients"] as? [[String: Any]] ?? [] {
            served.append(("clients", entry["publishedAt"] as? String ?? ""))
        }
        for entry in try object("/v1/audit")["entries"] as? [[String: Any]] ?? [] {
            served.append(("audit", entry["time"] as? String ?? ""))
        }
        served.append(("explain", try object("/v1/clients/ios-phone/tabs/explain")["evaluatedAt"] as? String ?? ""))
        return served
    }

    @Test("publishedAt, audit time and evaluatedAt are whole-second UTC that the default parsers read")
    func wholeSeconds() throws {
        try TestApp.with { app in
            let served = try Self.servedInstants(app)
            #expect(served.count == 12, "4 envelopes, 3 versions, 1 client, 3 audit entries (the sample's, the publish's, the rollback's), explain")
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            for (place, text) in served {
                #expect(text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(place): \(text)")
                #expect(ISO8601DateFormatter().date(from: text) != nil, "\(place): \(text)")
                let json = Data(#"{"publishedAt":"\#(text)"}"#.utf8)
                #expect(throws: Never.self, "\(place): \(text)") { try decoder.decode(Envelope.self, from: json) }
            }
        }
    }

    @Test("an audit entry's time as since includes that entry: the fraction is dropped, not rounded up")
    func sinceIncludesEntry() throws {
        try TestApp.with { app in
            try app.publish("ios-phone", Fixtures.designExample)
            let audit = try app.request("GET", "/v1/audit", headers: TestApp.admin)
            let entries = try #require((try audit.json() as? [String: Any])?["entries"] as? [[String: Any]])
            let last = try #require(entries.last)
            let time = try #require(last["time"] as? String)
            let since = try app.request("GET", "/v1/audit?since=\(time)", headers: TestApp.admin)
            let found = (try since.json() as? [String: Any])?["entries"] as? [[String: Any]] ?? []
            let sequence = try #require(last["sequence"] as? Int)
            #expect(found.compactMap { $0["sequence"] as? Int }.contains(sequence), "since=\(time)")
        }
    }
}
