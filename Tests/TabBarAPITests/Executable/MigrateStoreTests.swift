#if PostgreSQL
import Foundation
import Testing
import TestSupport
import TabBarStore

/// `tabconfig migrate-store`, the real executable, from a file store to a PostgreSQL database.
@Suite("migrate-store")
struct MigrateStoreTests {
    private static func document(_ n: Int) -> Data {
        Data(#"{"tabs":[{"id":"home","n":\#(n)}]}"#.utf8)
    }

    @Test("copies versions with their history and numbering and every customization; a second run writes nothing")
    func copiesAndIsIdempotent() throws {
        let directory = try TemporaryDirectory("migrate")
        defer { directory.remove() }
        let data = directory.child("data")
        let source = try FileStore(directory: data, logger: .silent)
        let v1 = try source.publish(client: "ios", document: Self.document(1), note: "first", rollbackOf: nil)
        _ = try source.publish(client: "ios", document: Self.document(2), note: nil, rollbackOf: nil)
        let v3 = try source.publish(client: "ios", document: Self.document(1), note: "back", rollbackOf: 1)
        let web = try source.publish(client: "web", document: Self.document(9), note: nil, rollbackOf: nil)
        _ = try source.publish(client: "gone", document: Self.document(5), note: nil, rollbackOf: nil)
        _ = try source.publish(client: "gone", document: Self.document(6), note: nil, rollbackOf: nil)
        var saved: [String: CustomizationEntry] = [:]
        for index in 0..<50 {
            let value = StoredCustomization(order: ["home", "t\(index)"], hidden: index % 3 == 0 ? ["home"] : [])
            _ = try source.saveCustomization(client: "ios", user: "u\(index)", value, expectedRevision: nil)
            saved["u\(index)"] = try source.saveCustomization(client: "ios", user: "u\(index)", value, expectedRevision: nil)
        }
        #expect(try source.deleteCustomization(client: "ios", user: "u7"))
        _ = try source.saveCustomization(client: "gone", user: "dave", StoredCustomization(order: [], hidden: []), expectedRevision: nil)
        #expect(try source.deleteClient("gone"))
        source.close()

        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let (status, output) = try ServerProcess.run(["migrate-store", "--from", data.path, "--to", url])
        #expect(status == 0, "\(output)")
        #expect(output.contains("copied 4 versions of 2 clients and 49 customizations (2 reset)"), "\(output)")
        #expect(output.contains("written: 4 versions, 51 customizations"), "\(output)")
        #expect(output.contains("counts verified"))
        let (again, secondOutput) = try ServerProcess.run(["migrate-store", "--from", data.path, "--to", url])
        #expect(again == 0)
        #expect(secondOutput.contains("written: 0 versions, 0 customizations"), "\(secondOutput)")

        let copy = try PostgresStore(url: try #require(PostgresStoreURL(url)), logger: .silent)
        defer { copy.close() }
        #expect(copy.clientIDs() == ["ios", "web"])
        #expect(copy.versionNumbers(client: "ios") == [1, 2, 3])
        #expect(copy.version(client: "ios", number: 1) == v1)
        #expect(copy.liveVersion(client: "ios") == v3)
        #expect(copy.liveVersion(client: "web") == web)
        #expect(copy.customizationCount == 49)
        for index in 0..<50 where index != 7 {
            #expect(copy.customization(client: "ios", user: "u\(index)") == saved["u\(index)"])
        }
        #expect(copy.customization(client: "ios", user: "u7") == nil)
        #expect(try copy.saveCustomization(client: "ios", user: "u7", StoredCustomization(order: [], hidden: []), expectedRevision: 0).revision == 4)
        #expect(try copy.publish(client: "ios", document: Self.document(4), note: nil, rollbackOf: nil).version == 4)
        #expect(try copy.publish(client: "gone", document: Self.document(7), note: nil, rollbackOf: nil).version == 3,
            "a deleted client's numbering came along")
        #expect(try copy.saveCustomization(client: "gone", user: "dave", StoredCustomization(order: [], hidden: []), expectedRevision: 0).revision == 2)
    }

    @Test("build manifests come along with their revisions; a second run writes none; revisions continue after them")
    func copiesBuilds() throws {
        let directory = try TemporaryDirectory("migrate-builds")
        defer { directory.remove() }
        let data = directory.child("data")
        let source = try FileStore(directory: data, logger: .silent)
        let manifest = Data(#"{"viewControllers":["ShopViewController"]}"#.utf8)
        _ = try source.registerBuild(client: "shop", platform: "ios", appVersion: "5.1.9", document: Data("{}".utf8))
        let current = try source.registerBuild(client: "shop", platform: "ios", appVersion: "5.2.0", document: manifest)
        source.close()

        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let (status, output) = try ServerProcess.run(["migrate-store", "--from", data.path, "--to", url])
        #expect(status == 0, "\(output)")
        #expect(output.contains("copied 2 build manifests; written: 2"), "\(output)")
        let (again, secondOutput) = try ServerProcess.run(["migrate-store", "--from", data.path, "--to", url])
        #expect(again == 0)
        #expect(secondOutput.contains("copied 2 build manifests; written: 0"), "\(secondOutput)")

        let copy = try PostgresStore(url: try #require(PostgresStoreURL(url)), logger: .silent)
        defer { copy.close() }
        #expect(copy.build(client: "shop", platform: "ios", appVersion: "5.2.0") == current.build)
        #expect(copy.builds(client: "shop").count == 2)
        let next = try copy.registerBuild(
            client: "shop", platform: "ios", appVersion: "5.2.1", document: manifest)
        #expect(next.build.revision > current.build.revision, "a revision is never given out twice")
    }

    @Test("where each staged rollout stands comes along; a second run writes none")
    func copiesRollouts() throws {
        let directory = try TemporaryDirectory("migrate-rollouts")
        defer { directory.remove() }
        let data = directory.child("data")
        let source = try FileStore(directory: data, logger: .silent)
        let started = Date(timeIntervalSince1970: 1_800_000_000)
        var rolledBack = RolloutState(
            client: "shop", tab: "cart", plan: "p", stage: 1, stageStartedAt: started, updatedAt: started)
        rolledBack.phase = .rolledBack
        rolledBack.reason = "failure rate 5 % over 2 %"
        let written = try #require(try source.writeRolloutState(rolledBack, replacing: nil, audit: nil))
        source.close()

        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let (status, output) = try ServerProcess.run(["migrate-store", "--from", data.path, "--to", url])
        #expect(status == 0, "\(output)")
        #expect(output.contains("copied 1 staged rollout states; written: 1"), "\(output)")
        let (again, secondOutput) = try ServerProcess.run(["migrate-store", "--from", data.path, "--to", url])
        #expect(again == 0)
        #expect(secondOutput.contains("copied 1 staged rollout states; written: 0"), "\(secondOutput)")

        let copy = try PostgresStore(url: try #require(PostgresStoreURL(url)), logger: .silent)
        defer { copy.close() }
        let copied = try #require(copy.rolloutStates(client: "shop").first)
        #expect(copied.phase == .rolledBack && copied.stage == 1 && copied.reason == written.reason)
        #expect(copied.stageStartedAt == written.stageStartedAt && copied.plan == "p")
    }

    @Test("a target that is not a PostgreSQL URL: exit 2, nothing copied")
    func refusesBadTargets() throws {
        let directory = try TemporaryDirectory("migrate-bad")
        defer { directory.remove() }
        let (status, output) = try ServerProcess.run(["migrate-store", "--from", directory.child("data").path, "--to", "./elsewhere"])
        #expect(status == 2)
        #expect(output.contains("postgres://USER"))
    }
}
#endif
