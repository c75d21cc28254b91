import Foundation
import Testing
import TestSupport
@testable import TabBarStore

/// `builds.json`, `rollouts.json` and `changes.json`: written whole and atomically, so a damaged one was damaged
/// afterwards: open refuses it with the command that moves it aside, verify reports it, repair moves it aside.
@Suite("build manifests, rollout states and change requests files")
struct BuildFileTests {
    @Test("A damaged builds.json stops open, verify reports it, repair moves it aside and the store opens without it")
    func damagedBuildsFile() throws {
        let directory = try TemporaryDirectory("builds-damage")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        _ = try store.registerBuild(
            client: "shop", platform: "ios", appVersion: "5.2.0", document: Data(#"{"nibs":["Shop"]}"#.utf8))
        _ = try store.publish(client: "shop", document: Data(#"{"tabs":[]}"#.utf8), note: nil, rollbackOf: nil)
        store.close()
        let file = data.appendingPathComponent(BuildTable.fileName)
        try Data(#"{"format":1,"lastRevision":1,"builds":[{"cli"#.utf8).write(to: file)

        #expect {
            _ = try FileStore(directory: data, logger: .silent)
        } throws: { error in
            "\(error)".contains("builds.json is damaged") && "\(error)".contains("tabconfig store repair")
        }
        let verified = try StoreRecovery.verify(directory: data)
        #expect(verified.damagedFiles.map(\.kind) == [.builds])
        #expect(verified.damagedFiles.first?.opensWithoutRepair == false)

        let repaired = try StoreRecovery.repair(directory: data, logger: .silent)
        #expect(repaired.damagedFiles.first?.sideFiles.count == 1)
        #expect(try StoreRecovery.verify(directory: data).isClean)
        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(reopened.builds(client: "shop") == [])
        #expect(reopened.liveVersion(client: "shop")?.version == 1)
    }

    @Test("A damaged rollouts.json stops open, verify reports it, repair moves it aside and the rollouts start over")
    func damagedRolloutsFile() throws {
        let directory = try TemporaryDirectory("rollouts-damage")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        _ = try store.writeRolloutState(
            RolloutState(client: "shop", tab: "cart", plan: "p", stageStartedAt: Date(), updatedAt: Date()),
            replacing: nil, audit: nil)
        store.close()
        let file = data.appendingPathComponent(RolloutTable.fileName)
        try Data(#"{"format":1,"lastRevision":1,"rollouts":[{"cli"#.utf8).write(to: file)

        #expect {
            _ = try FileStore(directory: data, logger: .silent)
        } throws: { error in
            "\(error)".contains("rollouts.json is damaged") && "\(error)".contains("tabconfig store repair")
        }
        let verified = try StoreRecovery.verify(directory: data)
        #expect(verified.damagedFiles.map(\.kind) == [.rollouts])
        #expect(verified.damagedFiles.first?.opensWithoutRepair == false)
        let repaired = try StoreRecovery.repair(directory: data, logger: .silent)
        #expect(repaired.damagedFiles.first?.action?.contains("first stage") == true)
        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(reopened.rolloutStates(client: "shop") == [])
    }

    @Test("A damaged changes.json stops open, verify reports it, repair moves it aside and the store opens without it")
    func damagedChangesFile() throws {
        let directory = try TemporaryDirectory("changes-damage")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        _ = try store.openChange(
            ChangeRequest(client: "shop", author: "ann", baseVersion: 0, document: Data("{}".utf8)), audit: nil)
        store.close()
        try Data(#"{"format":1,"lastID":1,"changes":[{"id"#.utf8).write(to: data.appendingPathComponent(ChangeTable.fileName))
        #expect {
            _ = try FileStore(directory: data, logger: .silent)
        } throws: { error in
            "\(error)".contains("changes.json is damaged") && "\(error)".contains("tabconfig store repair")
        }
        #expect(try StoreRecovery.verify(directory: data).damagedFiles.map(\.kind) == [.changes])
        _ = try StoreRecovery.repair(directory: data, logger: .silent)
        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(reopened.changes(client: nil) == [])
    }

    @Test("A kill between the temp file and the rename leaves the previous file, which open reads")
    func interruptedWrite() throws {
        let directory = try TemporaryDirectory("builds-torn")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        let first = try store.registerBuild(
            client: "shop", platform: "ios", appVersion: "5.2.0", document: Data(#"{"nibs":["Shop"]}"#.utf8))
        store.close()
        try Data("{\"format\":1,\"lastRe".utf8).write(to: data.appendingPathComponent(BuildTable.fileName + ".tmp"))
        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(reopened.builds(client: "shop") == [first.build])
    }
}
