import Foundation
import MicroHTTPTesting
import Testing
import TestSupport

/// The sample config is published once per store: on one that never held a client, by one replica, audited.
@Suite("sample seed")
struct SampleSeedTests {
    private static let environment = ["TABCONFIG_ADMIN_TOKEN": "seed-admin"]
    private static let admin = [("Authorization", "Bearer seed-admin")]

    @Test("file store: the sample is audited, and a data directory whose clients were all deleted stays empty")
    func deletedSampleStaysDeleted() throws {
        let directory = try TemporaryDirectory("seed-file")
        defer { directory.remove() }
        let first = try ServerProcess(dataDirectory: directory.url, environment: Self.environment)
        let audit = try Self.auditEntries(port: first.port)
        #expect(audit.map { $0["key"] as? String } == ["tabconfig (sample)"])
        #expect(audit.map { $0["action"] as? String } == ["publish"])
        let deleted = try httpRequest(
            port: first.port, "DELETE", "/v1/clients/ios-phone/config", headers: Self.admin)
        #expect(deleted.status == 204)
        #expect(first.stop() == 0)

        let second = try ServerProcess(dataDirectory: directory.url, environment: Self.environment)
        defer { _ = second.stop() }
        let clients = try httpRequest(port: second.port, "GET", "/v1/clients", headers: Self.admin)
        #expect(try clients.json() as? NSDictionary == ["clients": []])
        #expect(try Self.auditEntries(port: second.port).map { $0["action"] as? String } == ["publish", "delete"])
        #expect(!second.log.contains("published the sample config"))
    }

    #if PostgreSQL
        @Test("PostgreSQL: three replicas starting together on an empty database publish the sample once")
        func replicasSeedOnce() throws {
            let url = try TestPostgres.createDatabase()
            defer { TestPostgres.dropDatabase(url) }
            let directories = try (0..<3).map { try TemporaryDirectory("seed-pg-\($0)") }
            defer { directories.forEach { $0.remove() } }
            let replicas = try ServerProcess.startTogether(
                directories.map(\.url), arguments: ["--store", url], environment: Self.environment)
            defer { replicas.forEach { _ = $0.stop() } }
            #expect(try TestPostgres.sql(url, "SELECT count(*) FROM tabconfig_versions") == "1")
            #expect(try TestPostgres.sql(url, "SELECT count(*) FROM tabconfig_audit") == "1")
            #expect(replicas.filter { $0.log.contains("published the sample config") }.count == 1)
            for replica in replicas {
                let versions = try httpRequest(
                    port: replica.port, "GET", "/v1/clients/ios-phone/config/versions", headers: Self.admin)
                #expect(versions.status == 200)
                let body = try #require(try versions.json() as? [String: Any])
                #expect(body["live"] as? Int == 1)
            }
        }

        @Test("PostgreSQL: a replica starting after an operator's first publish does not publish the sample")
        func noSampleAfterAPublish() throws {
            let url = try TestPostgres.createDatabase()
            defer { TestPostgres.dropDatabase(url) }
            let directories = [try TemporaryDirectory("seed-pg-a"), try TemporaryDirectory("seed-pg-b")]
            defer { directories.forEach { $0.remove() } }
            let operatorReplica = try ServerProcess(
                dataDirectory: directories[0].url, arguments: ["--store", url, "--no-sample"],
                environment: Self.environment)
            defer { _ = operatorReplica.stop() }
            let tabs = ["home", "search"].map {
                #"{"id":"\#($0)","title":{"default":"\#($0)"},"icon":{"image":"\#($0)"},"#
                    + #""destination":{"type":"viewController","name":"\#($0.capitalized)ViewController"}}"#
            }
            let config = #"{"tabs":["# + tabs.joined(separator: ",") + "]}"
            let published = try httpRequest(
                port: operatorReplica.port, "PUT", "/v1/clients/android/config",
                headers: Self.admin + [("Content-Type", "application/json")], body: Data(config.utf8))
            #expect(published.status == 201, "\(published.text)")

            let late = try ServerProcess(
                dataDirectory: directories[1].url, arguments: ["--store", url], environment: Self.environment)
            defer { _ = late.stop() }
            let clients = try httpRequest(port: late.port, "GET", "/v1/clients", headers: Self.admin)
            let listed = try #require(try clients.json() as? [String: Any])
            #expect((listed["clients"] as? [[String: Any]])?.compactMap { $0["client"] as? String } == ["android"])
            #expect(try TestPostgres.sql(url, "SELECT count(*) FROM tabconfig_versions WHERE client = 'ios-phone'") == "0")
        }
    #endif

    private static func auditEntries(port: Int) throws -> [[String: Any]] {
        let response = try httpRequest(port: port, "GET", "/v1/audit", headers: admin)
        guard response.status == 200, let body = try response.json() as? [String: Any] else {
            throw TestFailure("audit: \(response.status) \(response.text)")
        }
        return body["entries"] as? [[String: Any]] ?? []
    }
}
