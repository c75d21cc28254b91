import Foundation
import Synchronization
import Testing
import TabBarStore
import TestSupport

/// Build manifests, against every store.
extension StoreConformanceTests {
    static func manifest(_ names: [String]) -> Data {
        Data(#"{"viewControllers":[\#(names.map { #""\#($0)""# }.joined(separator: ","))]}"#.utf8)
    }

    @Test("A manifest is created, replaced, kept when equal, listed in order and removed", arguments: StoreFactory.all)
    func registerAndRemoveBuilds(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            #expect(store.builds(client: "shop") == [])
            let created = try store.registerBuild(
                client: "shop", platform: "ios", appVersion: "5.2.0", document: Self.manifest(["Home"]))
            #expect(created.change == .created)
            #expect(created.build.document == Self.manifest(["Home"]))
            #expect(store.build(client: "shop", platform: "ios", appVersion: "5.2.0") == created.build)

            let equal = try store.registerBuild(
                client: "shop", platform: "ios", appVersion: "5.2.0", document: Self.manifest(["Home"]))
            #expect(equal.change == .unchanged)
            #expect(equal.build == created.build)

            let replaced = try store.registerBuild(
                client: "shop", platform: "ios", appVersion: "5.2.0", document: Self.manifest(["Home", "Shop"]))
            #expect(replaced.change == .replaced)
            #expect(replaced.build.revision > created.build.revision)
            #expect(replaced.build.registeredAt >= created.build.registeredAt)

            let older = try store.registerBuild(
                client: "shop", platform: "ios", appVersion: "5.1.9", document: Self.manifest(["Home"]))
            _ = try store.registerBuild(
                client: "shop", platform: "android", appVersion: "5.2.0", document: Self.manifest(["Home"]))
            _ = try store.registerBuild(
                client: "other", platform: "ios", appVersion: "5.2.0", document: Self.manifest(["Home"]))
            #expect(older.build.revision > replaced.build.revision)
            #expect(store.builds(client: "shop").map { "\($0.platform) \($0.appVersion)" } == [
                "android 5.2.0", "ios 5.1.9", "ios 5.2.0",
            ])

            #expect(try store.deleteBuild(client: "shop", platform: "ios", appVersion: "5.1.9"))
            #expect(try !store.deleteBuild(client: "shop", platform: "ios", appVersion: "5.1.9"))
            #expect(store.build(client: "shop", platform: "ios", appVersion: "5.1.9") == nil)
            let again = try store.registerBuild(
                client: "shop", platform: "ios", appVersion: "5.1.9", document: Self.manifest(["Home"]))
            #expect(again.change == .created)
            #expect(again.build.revision > older.build.revision, "a revision is never given out twice")
        }
    }

    @Test("Manifests are kept across a reopen, and when their client is deleted", arguments: StoreFactory.all)
    func buildsAreDurable(factory: StoreFactory) throws {
        try withStore(factory) { harness, store in
            _ = try store.publish(client: "shop", document: Self.document(1), note: nil, rollbackOf: nil)
            let registered = try store.registerBuild(
                client: "shop", platform: "ios", appVersion: "5.2.0", document: Self.manifest(["Home", "Shop"]))
            #expect(try store.deleteClient("shop", audit: nil))
            #expect(store.build(client: "shop", platform: "ios", appVersion: "5.2.0") == registered.build)
            store.close()
            let reopened = try harness.open()
            defer { reopened.close() }
            #expect(reopened.builds(client: "shop") == [registered.build])
            let next = try reopened.registerBuild(
                client: "shop", platform: "ios", appVersion: "5.2.1", document: Self.manifest(["Home"]))
            #expect(next.build.revision > registered.build.revision)
        }
    }

    @Test("Invalid client ids and documents that are not JSON are refused", arguments: StoreFactory.all)
    func refusesInvalidBuilds(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            #expect(throws: StoreError.invalidClientID) {
                try store.registerBuild(client: "Bad Client", platform: "ios", appVersion: "1.0.0", document: Self.manifest([]))
            }
            #expect(throws: StoreError.invalidDocument) {
                try store.registerBuild(client: "shop", platform: "ios", appVersion: "1.0.0", document: Data("{".utf8))
            }
            #expect(store.builds(client: "shop") == [])
        }
    }

    @Test("Registering and removing a manifest write audit entries with the build; an equal one writes none",
        arguments: StoreFactory.all)
    func auditedBuilds(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            let recorder = AuditRecorder()
            let created = try store.registerBuild(
                client: "shop", platform: "ios", appVersion: "5.2.0", document: Self.manifest(["Home"]),
                audit: recorder.record(.registerBuild, requestID: "r1"))
            _ = try store.publish(client: "shop", document: Self.document(1), note: nil, rollbackOf: nil)
            let equal = try store.registerBuild(
                client: "shop", platform: "ios", appVersion: "5.2.0", document: Self.manifest(["Home"]),
                audit: recorder.record(.registerBuild))
            #expect(equal.change == .unchanged)
            let replaced = try store.registerBuild(
                client: "shop", platform: "ios", appVersion: "5.2.0", document: Self.manifest(["Home", "Shop"]),
                audit: recorder.record(.registerBuild))
            #expect(try store.deleteBuild(client: "shop", platform: "ios", appVersion: "5.2.0", audit: recorder.record(.removeBuild)))
            #expect(try !store.deleteBuild(client: "shop", platform: "ios", appVersion: "5.2.0", audit: recorder.record(.removeBuild)))

            let entries = try store.auditEntries(AuditQuery(client: "shop"))
            #expect(entries.map(\.action) == [.registerBuild, .registerBuild, .removeBuild])
            #expect(entries.map(\.build?.revision) == [created.build.revision, replaced.build.revision, replaced.build.revision])
            #expect(entries.allSatisfy { $0.build?.platform == "ios" && $0.build?.appVersion == "5.2.0" })
            #expect(entries.map(\.version) == [0, 1, 1], "the client's live version then")
            #expect(entries.first?.requestID == "r1" && entries.first?.time == created.build.registeredAt)
            #expect(entries.allSatisfy { $0.summary == AuditSummary() })
            #expect(recorder.previous.isEmpty, "a manifest's change summarizes no version")
        }
    }

    @Test("A manifest registered or removed through one store is seen by the others sharing its database",
        arguments: StoreFactory.all)
    func buildsAreShared(factory: StoreFactory) throws {
        try withStore(factory) { harness, store in
            guard store.isShared else { return }
            let other = try harness.open()
            defer { other.close() }
            let changes = ChangeRecorder()
            other.observeChanges { changes.append($0) }
            let registered = try store.registerBuild(
                client: "shop", platform: "ios", appVersion: "5.2.0", document: Self.manifest(["Shop"]))
            #expect(eventually { other.build(client: "shop", platform: "ios", appVersion: "5.2.0") == registered.build })
            #expect(eventually { changes.all.contains(.builds(client: "shop")) })
            #expect(try store.deleteBuild(client: "shop", platform: "ios", appVersion: "5.2.0"))
            #expect(eventually { other.builds(client: "shop").isEmpty })
        }
    }
}

/// The changes a store reported to its observer.
final class ChangeRecorder: Sendable {
    private let changes = Mutex<[StoreChange]>([])

    func append(_ change: StoreChange) {
        changes.withLock { $0.append(change) }
    }

    var all: [StoreChange] { changes.withLock { $0 } }
}
