import Foundation
import Testing
import TabBarStore
import TestSupport

/// Staged rollouts' states, against every store: written in place of the state a decision was made from, counts
/// added in place, kept across a reopen, audited.
extension StoreConformanceTests {
    static func rolloutState(_ tab: String, plan: String = "p1", stage: Int = 0) -> RolloutState {
        RolloutState(
            client: "shop", tab: tab, plan: plan, stage: stage, stageStartedAt: Date(timeIntervalSince1970: 1_800_000_000),
            updatedAt: Date(timeIntervalSince1970: 0))
    }

    @Test("A rollout's state replaces only the one it was decided from; counts add up in place", arguments: StoreFactory.all)
    func rolloutStatesReplaceAndCount(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            #expect(store.rolloutStates(client: "shop") == [])
            let first = try #require(try store.writeRolloutState(Self.rolloutState("cart"), replacing: nil, audit: nil))
            #expect(first.revision > 0)
            #expect(store.rolloutStates(client: "shop") == [first])
            #expect(try store.writeRolloutState(Self.rolloutState("cart"), replacing: nil, audit: nil) == nil,
                    "a state exists: one decided from none is refused")

            let counted = try #require(
                try store.addRolloutCounts(client: "shop", tab: "cart", plan: "p1", stage: 0, opened: 12, failed: 1))
            #expect(counted.opened == 12 && counted.failed == 1 && counted.revision == first.revision)
            let again = try #require(
                try store.addRolloutCounts(client: "shop", tab: "cart", plan: "p1", stage: 0, opened: 3, failed: 2))
            #expect(again.opened == 15 && again.failed == 3)
            #expect(try store.addRolloutCounts(client: "shop", tab: "cart", plan: "p1", stage: 1, opened: 1, failed: 0) == nil)
            #expect(try store.addRolloutCounts(client: "shop", tab: "cart", plan: "p2", stage: 0, opened: 1, failed: 0) == nil)
            #expect(try store.addRolloutCounts(client: "shop", tab: "none", plan: "p1", stage: 0, opened: 1, failed: 0) == nil)

            var next = again
            next.stage = 1
            next.opened = 0
            next.failed = 0
            #expect(try store.writeRolloutState(next, replacing: counted, audit: nil) == nil,
                    "decided on counts that have grown since: refused")
            let advanced = try #require(try store.writeRolloutState(next, replacing: again, audit: nil))
            #expect(advanced.stage == 1 && advanced.opened == 0 && advanced.revision > again.revision)
            #expect(store.rolloutStates(client: "shop") == [advanced])
            #expect(try store.currentRolloutStates(client: "shop") == [advanced])

            var paused = advanced
            paused.phase = .paused
            paused.reason = "paused by ops"
            let written = try #require(try store.writeRolloutState(paused, replacing: advanced, audit: nil))
            #expect(try store.addRolloutCounts(client: "shop", tab: "cart", plan: "p1", stage: 1, opened: 1, failed: 0) == nil,
                    "a paused rollout counts nothing")
            let other = try #require(try store.writeRolloutState(Self.rolloutState("news"), replacing: nil, audit: nil))
            #expect(store.rolloutStates(client: "shop").map(\.tab) == ["cart", "news"])
            #expect(store.rolloutStates(client: "other") == [])
            try store.removeRolloutStates(client: "shop", keeping: ["news"])
            #expect(store.rolloutStates(client: "shop") == [other])
            #expect(written.revision < other.revision)
        }
    }

    @Test("Rollout states are kept across a reopen, and revisions never repeat", arguments: StoreFactory.all)
    func rolloutStatesAreDurable(factory: StoreFactory) throws {
        try withStore(factory) { harness, store in
            let written = try #require(try store.writeRolloutState(Self.rolloutState("cart"), replacing: nil, audit: nil))
            let counted = try #require(
                try store.addRolloutCounts(client: "shop", tab: "cart", plan: "p1", stage: 0, opened: 7, failed: 1))
            store.close()
            let reopened = try harness.open()
            defer { reopened.close() }
            #expect(reopened.rolloutStates(client: "shop") == [counted])
            #expect(counted.stageStartedAt == written.stageStartedAt)
            let next = try #require(
                try reopened.writeRolloutState(Self.rolloutState("news"), replacing: nil, audit: nil))
            #expect(next.revision > written.revision)
        }
    }

    @Test("A rollout's change is audited with its figures and the revision written", arguments: StoreFactory.all)
    func rolloutChangesAreAudited(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            _ = try store.publish(client: "shop", document: Self.document(1), note: nil, rollbackOf: nil)
            let first = try #require(try store.writeRolloutState(Self.rolloutState("cart"), replacing: nil, audit: nil))
            var rolledBack = first
            rolledBack.phase = .rolledBack
            rolledBack.reason = "failure rate 0.05 over 0.02 after 600 opens in stage 1"
            let figures = AuditRollout(
                tab: "cart", stage: 0, toStage: 0, opened: 570, failed: 30, phase: .rolledBack,
                reason: rolledBack.reason)
            let record = AuditRecord(key: "rollout", action: .rollBackRollout, requestID: nil, rollout: figures)
            let written = try #require(try store.writeRolloutState(rolledBack, replacing: first, audit: record))
            let entries = try store.auditEntries(AuditQuery(client: "shop"))
            let entry = try #require(entries.last)
            #expect(entry.action == .rollBackRollout && entry.key == "rollout" && entry.version == 1)
            var expected = figures
            expected.revision = written.revision
            #expect(entry.rollout == expected)
            #expect(entry.summary == AuditSummary())
        }
    }
}
