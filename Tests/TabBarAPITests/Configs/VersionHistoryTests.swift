import Foundation
import MicroHTTPTesting
import TabBarModel
import Testing
import TestSupport

@Suite("version history and rollback")
struct VersionHistoryTests {
    @Test("history lists versions newest first with notes; one version reads back")
    func history() throws {
        try TestApp.with { app in
            let body = try JSONSerialization.data(withJSONObject: Fixtures.designExample)
            let published = try app.request(
                "PUT", "/v1/clients/ios-phone/config?note=six%20tabs", headers: TestApp.adminJSON, body: body)
            #expect(published.status == 201)
            #expect(published.headers["Location"] == "/v1/clients/ios-phone/config/versions/2")

            let list = try app.request("GET", "/v1/clients/ios-phone/config/versions", headers: TestApp.admin)
            #expect(list.status == 200)
            let object = try #require(try list.json() as? [String: Any])
            #expect(object["live"] as? Int == 2)
            let versions = try #require(object["versions"] as? [[String: Any]])
            #expect(versions.map { $0["version"] as? Int } == [2, 1])
            #expect(versions.first?["note"] as? String == "six tabs")
            #expect(versions.allSatisfy { $0["publishedAt"] is String && ($0["size"] as? Int ?? 0) > 0 })

            let one = try app.request("GET", "/v1/clients/ios-phone/config/versions/1", headers: TestApp.admin)
            #expect(one.status == 200)
            let config = try JSONSerialization.data(withJSONObject: (try one.json() as? [String: Any])?["config"] as Any)
            #expect(try TabBarConfig.decode(json: config).get() == TabBarConfig.sample)

            #expect(try app.request("GET", "/v1/clients/ios-phone/config/versions/9", headers: TestApp.admin).status == 404)
            #expect(try app.request("GET", "/v1/clients/ios-phone/config/versions/zero", headers: TestApp.admin).status == 400)
            #expect(try app.request("GET", "/v1/clients/ios-phone/config/versions").status == 401)
        }
    }

    @Test("rollback publishes a copy of the old version, equal in content")
    func rollback() throws {
        try TestApp.with { app in
            try app.publish("ios-phone", Fixtures.designExample)
            let response = try app.request(
                "POST", "/v1/clients/ios-phone/config/rollback", headers: TestApp.admin, json: ["version": 1, "note": "undo"])
            #expect(response.status == 201)
            let envelope = try #require(try response.json() as? [String: Any])
            #expect(envelope["version"] as? Int == 3)
            #expect(envelope["rollbackOf"] as? Int == 1)
            #expect(envelope["note"] as? String == "undo")

            let v1 = try app.request("GET", "/v1/clients/ios-phone/config/versions/1", headers: TestApp.admin)
            let v3 = try app.request("GET", "/v1/clients/ios-phone/config/versions/3", headers: TestApp.admin)
            let config1 = (try v1.json() as? [String: Any])?["config"] as? NSDictionary
            let config3 = (try v3.json() as? [String: Any])?["config"] as? NSDictionary
            #expect(config1 != nil && config1 == config3)
            let bar = try JSONDecoder().decode(ResolvedTabBar.self, from: try app.request("GET", "/v1/clients/ios-phone/tabs").body)
            #expect(bar.version == 3)
            #expect(bar.tabs.count == TabBarConfig.sample.tabs.count)

            #expect(try app.request("POST", "/v1/clients/ios-phone/config/rollback", headers: TestApp.admin, json: ["version": 42]).status == 404)
            #expect(try app.request("POST", "/v1/clients/ios-phone/config/rollback", headers: TestApp.admin, json: ["version": "1"]).status == 422)
            #expect(try app.request("POST", "/v1/clients/ios-phone/config/rollback", headers: TestApp.admin, json: ["version": 1, "extra": true]).status == 422)
        }
    }

    @Test("rollback bodies are read strictly: each problem with its pointer, a body that is not JSON a 400")
    func rollbackProblems() throws {
        try TestApp.with { app in
            try app.publish("ios-phone", Fixtures.designExample)
            func rollback(_ body: String) throws -> TestResponse {
                try app.request(
                    "POST", "/v1/clients/ios-phone/config/rollback", headers: TestApp.adminJSON, body: Data(body.utf8))
            }
            let notJSON = try rollback(#"{"version": 1,}"#)
            #expect(notJSON.status == 400)
            #expect(try notJSON.problemDetail() == "The request body is not JSON.")

            let shape = "must hold \"version\" (a positive integer) and optionally \"note\" (a string)"
            let longNote = String(repeating: "n", count: 257)
            let cases: [(body: String, problems: [ValidationProblem])] = [
                ("[1]", [ValidationProblem(pointer: "", message: "must be an object")]),
                (#"{"version": "1"}"#, [ValidationProblem(pointer: "", message: shape)]),
                (#"{"version": 1.5}"#, [ValidationProblem(pointer: "", message: shape)]),
                (#"{"note": 7}"#, [ValidationProblem(pointer: "", message: shape)]),
                (
                    #"{"version": 1, "extra": true, "a/b": 1}"#,
                    [
                        ValidationProblem(pointer: "/a~1b", message: "unknown field"),
                        ValidationProblem(pointer: "/extra", message: "unknown field"),
                    ]
                ),
                (
                    #"{"version": 0, "note": "\#(longNote)"}"#,
                    [
                        ValidationProblem(pointer: "/version", message: "must be a positive integer"),
                        ValidationProblem(pointer: "/note", message: "has at most 256 characters"),
                    ]
                ),
                (#"{"version": 1, "version": 1}"#, [ValidationProblem(pointer: "/version", message: "duplicate key \"version\"")]),
            ]
            for (body, problems) in cases {
                let response = try rollback(body)
                #expect(response.status == 422, "\(body)")
                #expect(try response.problems() == problems, "\(body)")
            }
            #expect(try rollback(#"{"version": 1.0, "note": null}"#).status == 201)
        }
    }

    @Test("only the newest N versions are kept; pruning survives a restart")
    func pruning() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        try TestApp.with(dataDirectory: directory, configure: { $0.keepVersions = 3 }) { app in
            for _ in 0..<5 { try app.publish("ios-phone", Fixtures.designExample) }
        }
        try TestApp.with(dataDirectory: directory, configure: { $0.keepVersions = 3 }) { app in
            let list = try app.request("GET", "/v1/clients/ios-phone/config/versions", headers: TestApp.admin)
            let versions = ((try list.json() as? [String: Any])?["versions"] as? [[String: Any]])?.compactMap { $0["version"] as? Int }
            #expect(versions == [6, 5, 4])
            #expect(try app.request("GET", "/v1/clients/ios-phone/config/versions/3", headers: TestApp.admin).status == 404)
            let files = try FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent("clients/ios-phone/versions").path)
            #expect(files.filter { $0.hasSuffix(".json") }.count == 3)
        }
    }
}
