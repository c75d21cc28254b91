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
        _ = try TestPostgres.sql(
            url, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'")
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

    /// The document inside a `GET …/config` envelope.
    private func configBody(_ envelope: Data) throws -> Data {
        let object = try #require(try JSONSerialization.jsonObject(with: envelope) as? [String: Any])
        return try JSONSerialization.data(withJSONObject: try #require(object["config"]))
    }
}
