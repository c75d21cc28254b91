import Foundation
import MicroHTTPTesting
import TabBarModel
import Testing
import TestSupport

@testable import TabBarAPI

/// Staged rollouts over HTTP (docs/rollouts.md): reports counted, ticks that advance, complete and roll back, what
/// the answers show at each stage, and what people do. Ticks are driven by the test (`tickNow`), at times it picks.
@Suite("staged rollouts over HTTP")
struct StagedRolloutTests {
    /// home, profile and shop, whose rollout goes 10 %, 50 %, 100 % with an hour's hold and a 20 % guard over 10 opens.
    static func config(seed: String = "shop-2026") -> [String: Any] {
        [
            "tabs": [
                TargetingEndpointTests.tab("home"), TargetingEndpointTests.tab("profile"),
                TargetingEndpointTests.tab(
                    "shop",
                    [
                        "rollout": [
                            "seed": seed,
                            "stages": [
                                ["coverage": 0.1, "hold": "PT1H"], ["coverage": 0.5, "hold": "PT1H"], ["coverage": 1],
                            ],
                            "guard": ["maxFailureRate": 0.2, "minOpens": 10],
                        ]
                    ]),
            ]
        ]
    }

    static func rollouts(_ app: TestApp) throws -> [[String: Any]] {
        let response = try app.request("GET", "/v1/clients/shop/rollouts", headers: TestApp.admin)
        guard response.status == 200 else { throw TestFailure("rollouts: \(response.status) \(response.text)") }
        return try #require((try response.json() as? [String: Any])?["rollouts"] as? [[String: Any]])
    }

    static func report(_ app: TestApp, version: Int = 1, opened: Int, failed: Int) throws -> TestResponse {
        try app.request(
            "POST", "/v1/clients/shop/reports",
            json: ["version": version, "tabs": ["shop": ["opened": opened, "failed": failed]]])
    }

    /// How many of `users` get `shop`.
    static func covered(_ app: TestApp, _ users: [String]) throws -> Set<String> {
        Set(try users.filter { try app.userTabs("shop", $0).tabs.contains { $0.id == "shop" } })
    }

    static let users = (0..<200).map { "user-\($0)" }

    @Test("advances when the hold has passed with enough opens, completes, and raising coverage takes the tab from no one")
    func advancesAndCompletes() throws {
        try TestApp.with { app in
            try app.publish("shop", Self.config())
            let pending = try #require(try Self.rollouts(app).first)
            #expect(pending["state"] as? String == "running" && pending["stage"] as? Int == 0)
            #expect(pending["reason"] as? String == "starts at the next tick")
            let start = Date()
            app.application.rollouts.tickNow(now: start)
            let atFirst = try Self.covered(app, Self.users)
            #expect((5...40).contains(atFirst.count), "about 10 % of 200: \(atFirst.count)")

            let report = try Self.report(app, opened: 20, failed: 1)
            #expect(report.status == 202)
            #expect((try report.json() as? [String: Any])?["counted"] as? Int == 1)
            app.application.rollouts.tickNow(now: start.addingTimeInterval(60))
            let holding = try #require(try Self.rollouts(app).first)
            #expect(holding["stage"] as? Int == 0 && holding["opened"] as? Int == 20 && holding["failed"] as? Int == 1)

            let outside = try #require(Self.users.first { !atFirst.contains($0) })
            let outsideTag = try app.request("GET", "/v1/clients/shop/users/\(outside)/tabs").headers["ETag"]
            app.application.rollouts.tickNow(now: start.addingTimeInterval(3_601))
            let second = try #require(try Self.rollouts(app).first)
            #expect(second["stage"] as? Int == 1 && second["coverage"] as? Double == 0.5)
            #expect(second["opened"] as? Int == 0, "counts start again in a new stage")
            let atSecond = try Self.covered(app, Self.users)
            #expect(atFirst.isSubset(of: atSecond), "raising the coverage takes the tab from no one")
            #expect((60...140).contains(atSecond.count), "about half of 200: \(atSecond.count)")
            if !atSecond.contains(outside), let outsideTag {
                let revalidated = try app.request(
                    "GET", "/v1/clients/shop/users/\(outside)/tabs", headers: [("If-None-Match", outsideTag)])
                #expect(revalidated.status == 304, "a user whose bar did not change keeps their 304")
            }
            #expect(try app.request("GET", "/v1/clients/shop/config", headers: TestApp.admin).text.contains("\"version\":1"),
                    "no new config version")

            app.application.rollouts.tickNow(now: start.addingTimeInterval(7_300))
            #expect(try Self.rollouts(app).first?["stage"] as? Int == 1, "the hold passed without opens: it waits")
            #expect((try Self.rollouts(app).first?["reason"] as? String)?.contains("0 of 10 opens") == true)
            #expect(try Self.report(app, opened: 10, failed: 0).status == 202)
            app.application.rollouts.tickNow(now: start.addingTimeInterval(7_301))
            let done = try #require(try Self.rollouts(app).first)
            #expect(done["state"] as? String == "completed" && done["stage"] as? Int == 2 && done["coverage"] as? Double == 1)
            #expect(try Self.covered(app, Self.users).count == Self.users.count)

            let audit = try #require(try app.request("GET", "/v1/audit?client=shop", headers: TestApp.admin).json() as? [String: Any])
            let entries = try #require(audit["entries"] as? [[String: Any]]).filter { $0["rollout"] != nil }
            #expect(entries.map { $0["action"] as? String } == ["advanceRollout", "completeRollout"])
            #expect(entries.allSatisfy { $0["key"] as? String == "rollout" })
            let figures = try #require(entries.first?["rollout"] as? [String: Any])
            #expect(figures["opened"] as? Int == 20 && figures["failed"] as? Int == 1 && figures["toStage"] as? Int == 1)
        }
    }

    @Test("rolls back when failures pass the guard: the tab leaves every bar, the event stream says so")
    func rollsBack() throws {
        try TestApp.with { app in
            try app.publish("shop", Self.config())
            app.application.rollouts.tickNow()
            let events = try EventReader(port: app.port, path: "/v1/clients/shop/tabs/events")
            defer { events.close() }
            _ = try events.next(skippingHeartbeats: true)
            #expect(try Self.report(app, opened: 7, failed: 3).status == 202)
            app.application.rollouts.tickNow()
            let rolledBack = try #require(try Self.rollouts(app).first)
            #expect(rolledBack["state"] as? String == "rolledBack" && rolledBack["coverage"] as? Double == 0)
            #expect((rolledBack["reason"] as? String)?.contains("failure rate 30 % over 20 %") == true)
            #expect(try Self.covered(app, Self.users).isEmpty)
            let event = try events.next(skippingHeartbeats: true)
            #expect(event.contains("event: rollout") && event.contains(#""phase":"rolledBack""#), "\(event)")
            let explained = try app.request(
                "GET", "/v1/clients/shop/tabs/explain?user=user-1", headers: TestApp.admin).text
            #expect(explained.contains("rolled back"))
            let flag = try app.request(
                "POST", "/ofrep/v1/evaluate/flags/tab.shop",
                json: ["context": ["client": "shop", "targetingKey": "user-1"]])
            #expect((try flag.json() as? [String: Any])?["value"] as? Bool == false, "OFREP's tab.shop follows: \(flag.text)")
            let ignored = try Self.report(app, opened: 100, failed: 0)
            #expect((try ignored.json() as? [String: Any])?["counted"] as? Int == 0, "a rolled-back rollout counts nothing")
        }
    }

    @Test("reports: 400, 413 and 422 for bad bodies; an old version or a tab without a running rollout is accepted and not counted")
    func badReports() throws {
        try TestApp.with { app in
            try app.publish("shop", Self.config())
            func post(_ body: String) throws -> TestResponse {
                try app.request("POST", "/v1/clients/shop/reports", headers: TestApp.json, body: Data(body.utf8))
            }
            #expect(try post("not json").status == 400)
            #expect(try post(#"{"version": 1, "tabs": {"shop": {"opened": 1}}, "x": "\#(String(repeating: "y", count: 17_000))"}"#).status == 413)
            let many = (0..<65).map { #""t\#($0)": {"opened": 1}"# }.joined(separator: ",")
            for body in [
                #"{"version": 1, "tabs": {\#(many)}}"#, #"{"version": 1, "tabs": {"shop": {"opened": 1001}}}"#,
                #"{"version": 1, "tabs": {"shop": {"opened": -1}}}"#, #"{"version": 0, "tabs": {}}"#,
                #"{"tabs": {}}"#, #"{"version": 1, "tabs": {"Shop!": {}}}"#, #"{"version": 1, "tabs": {"shop": {"seen": 1}}}"#,
            ] {
                let refused = try post(body)
                #expect(refused.status == 422, "\(body.prefix(60)): \(refused.status)")
                #expect(refused.headers["Content-Type"] == "application/problem+json")
            }
            #expect(try app.request("POST", "/v1/clients/nobody/reports", json: ["version": 1, "tabs": [:]]).status == 404)
            for accepted in [
                try Self.report(app, version: 9, opened: 5, failed: 5),
                try app.request("POST", "/v1/clients/shop/reports", json: ["version": 1, "tabs": ["home": ["opened": 3]]]),
            ] {
                #expect(accepted.status == 202)
                #expect((try accepted.json() as? [String: Any])?["counted"] as? Int == 0)
            }
            let metrics = try app.request("GET", "/metrics").text
            #expect(metrics.contains(#"tabconfig_reports_total{result="refused"} 9"#), "\(metrics.split(separator: "\n").filter { $0.contains("reports") })")
        }
    }

    @Test("people pause, resume, advance and roll back, each audited with the key's name; 404 and 409 where it cannot")
    func peopleAct() throws {
        try TestApp.with { app in
            try app.publish("shop", Self.config())
            func act(_ tab: String, _ action: String) throws -> TestResponse {
                try app.request("POST", "/v1/clients/shop/rollouts/\(tab)/\(action)", headers: TestApp.admin)
            }
            let paused = try act("shop", "pause")
            #expect(paused.status == 200, "\(paused.text)")
            #expect(paused.text.contains(#""state":"paused""#) && paused.text.contains("paused by admin-token"))
            #expect((try Self.report(app, opened: 50, failed: 50).json() as? [String: Any])?["counted"] as? Int == 0)
            app.application.rollouts.tickNow(now: Date().addingTimeInterval(10_000))
            #expect(try Self.rollouts(app).first?["stage"] as? Int == 0, "a paused rollout does not move")
            #expect(try act("shop", "pause").status == 409)
            #expect(try act("shop", "resume").status == 200)
            #expect(try act("shop", "resume").status == 409)
            let advanced = try act("shop", "advance")
            #expect(advanced.status == 200 && advanced.text.contains(#""stage":1"#))
            #expect(try act("shop", "rollback").text.contains(#""state":"rolledBack""#))
            #expect(try act("shop", "advance").status == 409)
            #expect(try act("home", "pause").status == 404)
            #expect(try app.request("POST", "/v1/clients/shop/rollouts/shop/pause").status == 401)
            let audit = try #require(try app.request("GET", "/v1/audit?client=shop", headers: TestApp.admin).json() as? [String: Any])
            let entries = try #require(audit["entries"] as? [[String: Any]]).filter { $0["rollout"] != nil }
            #expect(entries.map { $0["action"] as? String } == ["pauseRollout", "resumeRollout", "advanceRollout", "rollBackRollout"])
            #expect(entries.allSatisfy { $0["key"] as? String == "admin-token" })

            try app.publish("shop", Self.config())
            app.application.rollouts.tickNow()
            #expect(try Self.rollouts(app).first?["state"] as? String == "rolledBack", "the same plan keeps its state")
            try app.publish("shop", Self.config(seed: "shop-2027"))
            app.application.rollouts.tickNow()
            let restarted = try #require(try Self.rollouts(app).first)
            #expect(restarted["state"] as? String == "running" && restarted["stage"] as? Int == 0, "a new plan starts over")
        }
    }

    @Test("where a rollout stands survives kill -9 of the process (file store)")
    func survivesKill() throws {
        let directory = try TemporaryDirectory("rollout-kill")
        defer { directory.remove() }
        let environment = ["TABCONFIG_ADMIN_TOKEN": TestApp.adminToken]
        let first = try ServerProcess(dataDirectory: directory.child("data"), environment: environment)
        let body = try JSONSerialization.data(withJSONObject: Self.config())
        #expect(
            try httpRequest(
                port: first.port, "PUT", "/v1/clients/shop/config", headers: TestApp.adminJSON, body: body
            ).status == 201)
        let advanced = try httpRequest(
            port: first.port, "POST", "/v1/clients/shop/rollouts/shop/advance", headers: TestApp.admin)
        #expect(advanced.status == 200 && advanced.text.contains(#""stage":1"#), "\(advanced.text)")
        _ = first.stop(signal: SIGKILL)

        let second = try ServerProcess(dataDirectory: directory.child("data"), environment: environment)
        defer { _ = second.stop() }
        let listed = try httpRequest(port: second.port, "GET", "/v1/clients/shop/rollouts", headers: TestApp.admin)
        #expect(listed.text.contains(#""stage":1"#) && listed.text.contains(#""coverage":0.5"#), "\(listed.text)")
        let audit = try httpRequest(port: second.port, "GET", "/v1/audit?client=shop", headers: TestApp.admin)
        #expect(audit.text.contains("advanceRollout"))
    }
}
