#if PostgreSQL
import Foundation
import MicroHTTPTesting
import Testing
import TestSupport

/// The real executable on a PostgreSQL store (`--store`), spoken to over HTTP.
@Suite("service on PostgreSQL")
struct PostgresServiceTests {
    private static let admin = [("Authorization", "Bearer pg-admin"), ("Content-Type", "application/json")]

    @Test("publish, save a tab order, restart on the same database: everything is there, numbering continues")
    func survivesRestart() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let directory = try TemporaryDirectory("pg-service")
        defer { directory.remove() }
        let environment = ["TABCONFIG_ADMIN_TOKEN": "pg-admin"]
        let arguments = ["--store", url]

        let first = try ServerProcess(dataDirectory: directory.url, arguments: arguments, environment: environment)
        var client = try TestClient(port: first.port)
        let sample = try client.send("GET", "/v1/clients/ios-phone/tabs?locale=en")
        #expect(sample.status == 200, "the sample config was published into the empty database")
        let order = Data(#"{"order":["search","home"],"hidden":[]}"#.utf8)
        let saved = try client.send(
            "PUT", "/v1/clients/ios-phone/users/alice/tab-order", headers: [("Content-Type", "application/json")],
            body: order)
        #expect(saved.status == 200)
        let before = try client.send("GET", "/v1/clients/ios-phone/users/alice/tabs?locale=en")
        let etag = try #require(before.headers["ETag"])
        let config = try client.send("GET", "/v1/clients/ios-phone/config", headers: Self.admin)
        #expect(config.status == 200)
        client.close()
        #expect(first.stop() == 0)

        let second = try ServerProcess(dataDirectory: directory.url, arguments: arguments, environment: environment)
        defer { _ = second.stop() }
        client = try TestClient(port: second.port)
        defer { client.close() }
        let read = try client.send("GET", "/v1/clients/ios-phone/users/alice/tabs?locale=en")
        #expect(read.status == 200)
        #expect(read.headers["ETag"] == etag, "the same revision answers after the restart")
        #expect(read.body == before.body)
        let stale = try client.send(
            "PUT", "/v1/clients/ios-phone/users/alice/tab-order",
            headers: [("Content-Type", "application/json"), ("If-Match", "\"r0\"")], body: order)
        #expect(stale.status == 412)
        let republished = try client.send(
            "PUT", "/v1/clients/ios-phone/config", headers: Self.admin, body: try configBody(config.body))
        #expect(republished.status == 201, "\(String(decoding: republished.body, as: UTF8.self))")
        #expect(try TestPostgres.sql(url, "SELECT max(version) FROM tabconfig_versions WHERE client = 'ios-phone'") == "2")
        #expect(!second.log.contains("not a version"))
    }

    @Test("two replicas on one database: a write on one is read on the other, a publish reaches the other's event stream, and a lost listening connection is re-established with a re-read")
    func twoReplicas() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let directories = [try TemporaryDirectory("pg-a"), try TemporaryDirectory("pg-b")]
        defer { directories.forEach { $0.remove() } }
        let environment = ["TABCONFIG_ADMIN_TOKEN": "pg-admin"]
        let arguments = ["--store", url]
        let a = try ServerProcess(dataDirectory: directories[0].url, arguments: arguments, environment: environment)
        defer { _ = a.stop() }
        let b = try ServerProcess(
            dataDirectory: directories[1].url, arguments: arguments + ["--no-sample"], environment: environment)
        defer { _ = b.stop() }
        // Generous timeouts: a publish waits for the database, and the whole suite runs beside this test.
        let onA = try TestClient(port: a.port, timeout: 30)
        defer { onA.close() }
        let onB = try TestClient(port: b.port, timeout: 30)
        defer { onB.close() }
        let json = [("Content-Type", "application/json")]
        let path = "/v1/clients/ios-phone/users/alice/tabs?locale=en"

        let events = try EventReader(port: b.port, path: "/v1/clients/ios-phone/tabs/events")
        defer { events.close() }
        #expect(try events.next(skippingHeartbeats: true).contains("\"version\":1"))

        let saved = try onA.send(
            "PUT", "/v1/clients/ios-phone/users/alice/tab-order", headers: json, body: Data(#"{"order":["search"]}"#.utf8))
        #expect(saved.status == 200)
        let onAAfter = try onA.send("GET", path)
        #expect(try eventually(within: 30) { try onB.send("GET", path).headers["ETag"] == onAAfter.headers["ETag"] })
        #expect(try onB.send("GET", path).body == onAAfter.body)

        let config = try onA.send("GET", "/v1/clients/ios-phone/config", headers: Self.admin)
        let published = try onA.send("PUT", "/v1/clients/ios-phone/config", headers: Self.admin, body: try configBody(config.body))
        #expect(published.status == 201)
        // B serves version 2 once the notice is applied; the event was queued on its stream before that.
        #expect(try eventually(within: 30) {
            try onB.send("GET", "/v1/clients/ios-phone/tabs").headers["ETag"]?.hasPrefix("\"t2-") == true
        })
        let event = try events.next(skippingHeartbeats: true)
        #expect(event.hasPrefix("id: 2") && event.contains("\"version\":2"), "\(event)")

        // Every listening connection is cut: B listens again, re-reads, and sees what was written meanwhile.
        // Only this test's database: the cluster is shared with tests running meanwhile.
        _ = try TestPostgres.sql(
            url,
            """
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE datname = current_database() AND query LIKE 'LISTEN%'
            """)
        // A lost its own listener too: until it listens again its writes are refused (503, Retry-After), as a client
        // retrying sees.
        var statuses: [Int] = []
        let written = try eventually(within: 30) {
            let status = try onA.send(
                "PUT", "/v1/clients/ios-phone/users/bob/tab-order", headers: json, body: Data(#"{"order":["home"]}"#.utf8)
            ).status
            statuses.append(status)
            return status == 200
        }
        #expect(written)
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
        let bobOnA = try onA.send("GET", "/v1/clients/ios-phone/users/bob/tabs?locale=en")
        #expect(try eventually(within: 30) {
            try onB.send("GET", "/v1/clients/ios-phone/users/bob/tabs?locale=en").headers["ETag"] == bobOnA.headers["ETag"]
        })
        #expect(eventually(within: 30) { b.log.contains("listening again") })
    }

    @Test("a replica behind the database (writes it was never told of) reads through for a validator naming them: no older revision, If-Match holds, the version reaches its event stream")
    func readsThrough() throws {
        let served = try ServedDatabase("pg-read-through")
        defer { served.stop() }
        let (url, server) = (served.url, served.server)
        let client = try TestClient(port: server.port, timeout: 30)
        defer { client.close() }
        let json = [("Content-Type", "application/json")]
        let tabOrder = "/v1/clients/ios-phone/users/alice/tab-order"
        #expect(try client.send("PUT", tabOrder, headers: json, body: Data(#"{"order":["search"]}"#.utf8)).status == 200)
        let events = try EventReader(port: server.port, path: "/v1/clients/ios-phone/tabs/events")
        defer { events.close() }
        #expect(try events.next(skippingHeartbeats: true).contains("\"version\":1"))

        // What another replica would write, without the notice that would tell this one.
        func setRevision(_ revision: Int) throws {
            _ = try TestPostgres.sql(
                url, """
                    UPDATE tabconfig_customizations SET revision = \(revision), value = '{"order":["home","search"],"hidden":[]}'
                    WHERE client = 'ios-phone' AND user_id = 'alice'
                    """)
        }
        func addVersion(_ version: Int) throws {
            _ = try TestPostgres.sql(
                url, """
                    INSERT INTO tabconfig_versions SELECT client, \(version), now(), 'elsewhere', NULL, document
                    FROM tabconfig_versions WHERE client = 'ios-phone' AND version = 1;
                    UPDATE tabconfig_clients SET last_version = \(version), live_version = \(version) WHERE client = 'ios-phone'
                    """)
        }

        try setRevision(2)
        #expect(try client.send("GET", tabOrder).headers["ETag"] == "\"r1:alice\"", "the replica is behind")
        let revalidated = try client.send("GET", tabOrder, headers: [("If-None-Match", "\"r2:alice\"")])
        #expect(revalidated.status == 304)
        #expect(revalidated.headers["ETag"] == "\"r2:alice\"")
        let read = try client.send("GET", tabOrder)
        #expect(read.headers["ETag"] == "\"r2:alice\"")
        #expect(String(decoding: read.body, as: UTF8.self).contains(#""order":["home","search"]"#))

        try addVersion(2)
        let tabs = "/v1/clients/ios-phone/tabs?locale=en"
        #expect(try client.send("GET", tabs).headers["ETag"] == "\"t1-en\"", "the replica is behind")
        let tabsRevalidated = try client.send("GET", tabs, headers: [("If-None-Match", "\"t2-en\"")])
        #expect(tabsRevalidated.status == 304)
        #expect(tabsRevalidated.headers["ETag"] == "\"t2-en\"")
        let event = try events.next(skippingHeartbeats: true)
        #expect(event.contains("\"version\":2"), "\(event)")

        try setRevision(3)
        let userTabs = "/v1/clients/ios-phone/users/alice/tabs?locale=en"
        let userRevalidated = try client.send("GET", userTabs, headers: [("If-None-Match", "\"u2-en-3:alice\"")])
        #expect(userRevalidated.status == 304)
        #expect(userRevalidated.headers["ETag"] == "\"u2-en-3:alice\"")

        try setRevision(4)
        let written = try client.send(
            "PUT", tabOrder, headers: json + [("If-Match", "\"r4:alice\"")], body: Data(#"{"order":["search"]}"#.utf8))
        #expect(written.status == 200, "\(String(decoding: written.body, as: UTF8.self))")
        #expect(written.headers["ETag"] == "\"r5:alice\"")

        try addVersion(3)
        #expect(try client.send("GET", "/v1/clients/ios-phone/config/versions/3", headers: Self.admin).status == 200)
        try addVersion(4)
        let config = try client.send("GET", "/v1/clients/ios-phone/config", headers: Self.admin)
        let published = try client.send(
            "PUT", "/v1/clients/ios-phone/config", headers: Self.admin + [("If-Match", "\"c4\"")],
            body: try configBody(config.body))
        #expect(published.status == 201, "\(String(decoding: published.body, as: UTF8.self))")
        #expect(published.headers["ETag"] == "\"c5\"")
        let stale = try client.send("GET", tabOrder, headers: [("If-None-Match", "\"r9:alice\"")])
        #expect(stale.status == 200 && stale.headers["ETag"] == "\"r5:alice\"", "a revision nobody wrote names nothing newer")

        // An OFREP bulk evaluation names its client in the body; its tags read through as the tab bars' do.
        let ofrep = "/ofrep/v1/evaluate/flags"
        func evaluate(_ context: String, ifNoneMatch: String) throws -> TestResponse {
            try client.send(
                "POST", ofrep, headers: json + [("If-None-Match", ifNoneMatch)],
                body: Data(#"{"context":{"client":"ios-phone","locale":"en"\#(context)}}"#.utf8))
        }
        try setRevision(6)
        #expect(try evaluate(#","targetingKey":"alice""#, ifNoneMatch: "\"x\"").headers["ETag"] == "\"ou5-en-5:alice\"")
        let flagsRevalidated = try evaluate(#","targetingKey":"alice""#, ifNoneMatch: "\"ou5-en-6:alice\"")
        #expect(flagsRevalidated.status == 304)
        #expect(flagsRevalidated.headers["ETag"] == "\"ou5-en-6:alice\"")
        try addVersion(6)
        let defaultRevalidated = try evaluate("", ifNoneMatch: "\"ot6-en\"")
        #expect(defaultRevalidated.status == 304)
        #expect(defaultRevalidated.headers["ETag"] == "\"ot6-en\"")
    }

    @Test("with the database unreachable, a request naming a newer revision is told to retry, any other is served from memory")
    func readThroughUnreachable() throws {
        let served = try ServedDatabase("pg-unreachable")
        defer { served.stop() }
        let (url, server) = (served.url, served.server)
        let client = try TestClient(port: server.port, timeout: 30)
        defer { client.close() }
        let tabOrder = "/v1/clients/ios-phone/users/alice/tab-order"
        let saved = try client.send(
            "PUT", tabOrder, headers: [("Content-Type", "application/json")], body: Data(#"{"order":["search"]}"#.utf8))
        #expect(saved.status == 200 && saved.headers["ETag"] == "\"r1:alice\"")

        try TestPostgres.setReachable(url, false)
        defer { try? TestPostgres.setReachable(url, true) }
        #expect(try eventually(within: 30) { try client.send("GET", "/readyz").status == 503 })
        let newer = try client.send("GET", tabOrder, headers: [("If-None-Match", "\"r2:alice\"")])
        #expect(newer.status == 503, "an r2 written elsewhere may exist: this replica cannot tell")
        #expect(newer.headers["Retry-After"] == "5")
        #expect(newer.headers["Content-Type"] == "application/problem+json")
        let newerTabs = try client.send("GET", "/v1/clients/ios-phone/tabs", headers: [("If-None-Match", "\"t2-en\"")])
        #expect(newerTabs.status == 503)
        #expect(try client.send("GET", tabOrder, headers: [("If-None-Match", "\"r1:alice\"")]).status == 304)
        let plain = try client.send("GET", tabOrder)
        #expect(plain.status == 200 && plain.headers["ETag"] == "\"r1:alice\"")

        try TestPostgres.setReachable(url, true)
        #expect(try eventually(within: 30) { try client.send("GET", "/readyz").status == 200 })
        #expect(try client.send("GET", tabOrder, headers: [("If-None-Match", "\"r2:alice\"")]).status == 200)
    }

    @Test("a caller the route refuses makes no query: with the database unreachable it gets its 401, not the 503 of a read-through; a public route reads through for the version only")
    func refusedBeforeReadThrough() async throws {
        let token = try await TestKeys.hs256(.valid(subject: "alice"))
        let served = try ServedDatabase("pg-refused", environment: ["TABCONFIG_JWT_HS256_SECRET": TestKeys.secret])
        defer { served.stop() }
        let (url, server) = (served.url, served.server)
        let client = try TestClient(port: server.port, timeout: 30)
        defer { client.close() }
        let alice = [("Authorization", "Bearer \(token)")]

        try TestPostgres.setReachable(url, false)
        defer { try? TestPostgres.setReachable(url, true) }
        #expect(try eventually(within: 30) { try client.send("GET", "/readyz").status == 503 })
        let ghost = [("If-None-Match", "\"u1-en-7:ghost\", \"r7:ghost\", \"ou1-en-7:ghost\"")]
        for path in ["/v1/clients/ios-phone/users/ghost/tabs", "/v1/clients/ios-phone/users/ghost/tab-order"] {
            let refused = try client.send("GET", path, headers: ghost)
            #expect(refused.status == 401, "\(path): \(refused.status)")
        }
        let evaluation = try client.send(
            "POST", "/ofrep/v1/evaluate/flags", headers: ghost + [("Content-Type", "application/json")],
            body: Data(#"{"context":{"client":"ios-phone","targetingKey":"ghost"}}"#.utf8))
        #expect(evaluation.status == 401)
        let unparsed = try client.send(
            "POST", "/ofrep/v1/evaluate/flags", headers: ghost + [("Content-Type", "application/json")],
            body: Data("not json".utf8))
        #expect(unparsed.status == 401, "the token is checked before the body is read")
        let admin = try client.send("GET", "/v1/clients/ios-phone/config", headers: [("If-None-Match", "\"c9\"")])
        #expect(admin.status == 401)
        let publicRoute = try client.send("GET", "/v1/clients/ios-phone/tabs", headers: ghost)
        #expect(publicRoute.status == 200, "a user's tags name nothing the default tab bar depends on")
        let aliceOnGhost = try client.send("GET", "/v1/clients/ios-phone/users/alice/tab-order", headers: alice + ghost)
        #expect(aliceOnGhost.status == 200, "another user's tags are not read through for alice")

        let behind = try client.send(
            "GET", "/v1/clients/ios-phone/users/alice/tab-order", headers: alice + [("If-None-Match", "\"r7:alice\"")])
        #expect(behind.status == 503, "a caller let in reads through: this replica cannot tell whether r7 exists")
        let newerVersion = try client.send("GET", "/v1/clients/ios-phone/tabs", headers: [("If-None-Match", "\"t9-en\"")])
        #expect(newerVersion.status == 503)
    }

    @Test("two replicas on one database: reports to both add up, the stage advances once, both serve it")
    func stagedRolloutOnReplicas() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let directories = [try TemporaryDirectory("pg-ro-a"), try TemporaryDirectory("pg-ro-b")]
        defer { directories.forEach { $0.remove() } }
        let replicas = try ServerProcess.startTogether(
            directories.map(\.url), arguments: ["--store", url, "--no-sample", "--rollout-interval", "1"],
            environment: ["TABCONFIG_ADMIN_TOKEN": "pg-admin"])
        defer { replicas.forEach { _ = $0.stop() } }
        let (a, b) = (try TestClient(port: replicas[0].port, timeout: 30), try TestClient(port: replicas[1].port, timeout: 30))
        defer { a.close(); b.close() }
        let tab: (String) -> String = { id in
            #"{"id":"\#(id)","title":{"default":"\#(id)"},"destination":{"type":"viewController","name":"\#(id)VC"}}"#
        }
        let shop = #"{"id":"shop","title":{"default":"Shop"},"destination":{"type":"viewController","name":"ShopVC"},"#
            + #""rollout":{"stages":[{"coverage":0.1,"hold":"PT1S"},{"coverage":0.5,"hold":"PT1H"},{"coverage":1}],"#
            + #""guard":{"maxFailureRate":0.5,"minOpens":4}}}"#
        let published = try a.send(
            "PUT", "/v1/clients/shop/config", headers: Self.admin, body: Data(#"{"tabs":[\#(tab("home")),\#(shop)]}"#.utf8))
        #expect(published.status == 201, "\(String(decoding: published.body, as: UTF8.self))")
        func stage(_ client: TestClient) throws -> Int? {
            let listed = try client.send("GET", "/v1/clients/shop/rollouts", headers: Self.admin)
            let object = try JSONSerialization.jsonObject(with: listed.body) as? [String: Any]
            return (object?["rollouts"] as? [[String: Any]])?.first?["stageStartedAt"] == nil
                ? nil : (object?["rollouts"] as? [[String: Any]])?.first?["stage"] as? Int
        }
        #expect(try eventually(within: 30) { try stage(a) == 0 && stage(b) == 0 })
        let report = Data(#"{"version":1,"tabs":{"shop":{"opened":2}}}"#.utf8)
        let json = [("Content-Type", "application/json")]
        #expect(try a.send("POST", "/v1/clients/shop/reports", headers: json, body: report).status == 202)
        #expect(try b.send("POST", "/v1/clients/shop/reports", headers: json, body: report).status == 202)
        #expect(try eventually(within: 30) { try stage(a) == 1 && stage(b) == 1 }, "2 + 2 opens reached minOpens")
        Thread.sleep(forTimeInterval: 2.5)
        let audit = try a.send("GET", "/v1/audit?client=shop", headers: Self.admin)
        let entries = (try JSONSerialization.jsonObject(with: audit.body) as? [String: Any])?["entries"] as? [[String: Any]]
        let moves = (entries ?? []).filter { $0["rollout"] != nil }
        #expect(moves.map { $0["action"] as? String } == ["advanceRollout"], "one replica advanced it, once")
        #expect((moves.first?["rollout"] as? [String: Any])?["opened"] as? Int == 4)
    }

    @Test("a write waiting on the database holds no worker thread: with one, reads are answered while a publish waits for a lock")
    func writeWaitsOffWorker() throws {
        let served = try ServedDatabase("pg-waiting", arguments: ["--threads", "1"])
        defer { served.stop() }
        let (url, server) = (served.url, served.server)
        let publisher = try TestClient(port: server.port, timeout: 30)
        defer { publisher.close() }
        let reader = try TestClient(port: server.port, timeout: 30)
        defer { reader.close() }
        let config = try publisher.send("GET", "/v1/clients/ios-phone/config", headers: Self.admin)
        let document = try configBody(config.body)

        // Another session holds the client's row, which a publish locks.
        let session = try TestPostgresSession(url: url)
        defer { session.close() }
        try session.send("BEGIN; SELECT 1 FROM tabconfig_clients WHERE client = 'ios-phone' FOR UPDATE;")
        #expect(try eventually(within: 30) {
            try sessions(in: url, where: "state = 'idle in transaction'") == 1
        })
        let head = "PUT /v1/clients/ios-phone/config HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer pg-admin\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(document.count)\r\n\r\n"
        try publisher.sendRaw(Data(head.utf8) + document)
        #expect(try eventually(within: 30) {
            try sessions(in: url, where: "wait_event_type = 'Lock'") == 1
        })

        // The one worker is free: were it waiting with the publish, this read would wait for the lock's release,
        // which comes only after it.
        #expect(try reader.send("GET", "/v1/clients/ios-phone/tabs?locale=en").status == 200)
        try session.send("COMMIT;")
        let published = try publisher.readResponse(method: "PUT")
        #expect(published.status == 201)
        #expect(published.headers["ETag"] == "\"c2\"")
    }

    @Test("PostgreSQL stopped: writes 503 with Retry-After, reads served, /readyz 503; started again: healthy without a restart")
    func databaseOutage() throws {
        let cluster = try TestPostgresCluster()
        defer { cluster.stop() }
        let directory = try TemporaryDirectory("pg-outage")
        defer { directory.remove() }
        let server = try ServerProcess(
            dataDirectory: directory.url, arguments: ["--store", cluster.url],
            environment: ["TABCONFIG_ADMIN_TOKEN": "pg-admin"])
        defer { _ = server.stop() }
        let client = try TestClient(port: server.port)
        defer { client.close() }
        let json = [("Content-Type", "application/json")]
        let order = Data(#"{"order":["search"]}"#.utf8)
        let path = "/v1/clients/ios-phone/users/alice/tab-order"
        #expect(try client.send("PUT", path, headers: json, body: order).status == 200)
        let before = try client.send("GET", "/v1/clients/ios-phone/users/alice/tabs?locale=en")
        #expect(try client.send("GET", "/readyz").status == 200)

        try cluster.pause()
        #expect(try eventually(within: 30) { try client.send("GET", "/readyz").status == 503 })
        let refused = try client.send("PUT", path, headers: json, body: order)
        #expect(refused.status == 503)
        #expect(refused.headers["Retry-After"] != nil)
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        let publish = try client.send("GET", "/v1/clients/ios-phone/config", headers: Self.admin)
        #expect(publish.status == 200, "reads of configs go on")
        let during = try client.send("GET", "/v1/clients/ios-phone/users/alice/tabs?locale=en")
        #expect(during.status == 200 && during.body == before.body, "reads are served from what the replica holds")

        try cluster.resume()
        #expect(try eventually(within: 30) { try client.send("GET", "/readyz").status == 200 })
        let again = try client.send("PUT", path, headers: json + [("If-Match", "\"r1:alice\"")], body: order)
        #expect(again.status == 200, "\(String(decoding: again.body, as: UTF8.self))")
        #expect(server.log.contains("writes fail until it listens again"))
    }

    @Test("a store URL that is not one is refused at startup with the expected form")
    func invalidURL() throws {
        let (status, output) = try ServerProcess.run(["serve", "--port", "0", "--store", "mysql://a@b/c"])
        #expect(status != 0)
        #expect(output.contains("postgres://USER"))
    }

    @Test("a database that cannot be reached: startup fails, saying so")
    func unreachableDatabase() throws {
        let directory = try TemporaryDirectory("pg-unreachable")
        defer { directory.remove() }
        // Port 1: nothing listens there (a privileged port no test starts a server on).
        let (status, output) = try ServerProcess.run([
            "serve", "--port", "0", "--data-dir", directory.url.path, "--store",
            "postgres://nobody@127.0.0.1:1/none?sslmode=disable",
        ])
        #expect(status != 0)
        #expect(output.contains("cannot start"))
    }

    /// A database of its own and the executable serving it (admin token `pg-admin`).
    private struct ServedDatabase {
        let url: String
        let directory: TemporaryDirectory
        let server: ServerProcess

        init(_ name: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
            url = try TestPostgres.createDatabase()
            directory = try TemporaryDirectory(name)
            server = try ServerProcess(
                dataDirectory: directory.url, arguments: ["--store", url] + arguments,
                environment: environment.merging(["TABCONFIG_ADMIN_TOKEN": "pg-admin"]) { $1 })
        }

        func stop() {
            _ = server.stop()
            directory.remove()
            TestPostgres.dropDatabase(url)
        }
    }

    /// How many sessions of the database at `url` match `condition` (the cluster is shared with other tests).
    private func sessions(in url: String, where condition: String) throws -> Int? {
        Int(try TestPostgres.sql(url, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND \(condition)"))
    }

    /// The document inside a `GET …/config` envelope.
    private func configBody(_ envelope: Data) throws -> Data {
        let object = try #require(try JSONSerialization.jsonObject(with: envelope) as? [String: Any])
        return try JSONSerialization.data(withJSONObject: try #require(object["config"]))
    }
}
#endif
