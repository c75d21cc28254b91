import Foundation
import Testing
import TabBarStore
import TestSupport

/// Change requests, against every store: opened with the next id, written only over the revision they were read at,
/// kept across a reopen, audited at every step.
extension StoreConformanceTests {
    static func change(_ client: String = "shop", note: String? = "Holiday tabs") -> ChangeRequest {
        ChangeRequest(
            client: client, author: "ann", baseVersion: 1, document: Data(#"{"tabs":[]}"#.utf8), note: note,
            publishAt: Date(timeIntervalSince1970: 1_798_070_400.1234))
    }

    @Test("A change is opened with the next id and written only over the revision it was read at", arguments: StoreFactory.all)
    func changesAreWrittenOverTheirRevision(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            #expect(store.changes(client: "shop") == [])
            let first = try store.openChange(Self.change(), audit: nil)
            #expect(first.id > 0 && first.revision == 1 && first.state == .open && first.author == "ann")
            #expect(first.publishAt == Date(timeIntervalSince1970: 1_798_070_400.123), "to the millisecond")
            let second = try store.openChange(Self.change("other"), audit: nil)
            #expect(second.id > first.id)
            #expect(store.changes(client: "shop") == [first])
            #expect(store.changes(client: nil).map(\.id) == [first.id, second.id])

            var approved = first
            approved.approvals = ["bob"]
            let written = try #require(try store.writeChange(approved, expectedRevision: 1, audit: nil))
            #expect(written.revision == 2 && written.approvals == ["bob"])
            #expect(try store.writeChange(approved, expectedRevision: 1, audit: nil) == nil, "read at revision 1")
            var elsewhere = written
            elsewhere.client = "other"
            #expect(try store.writeChange(elsewhere, expectedRevision: 2, audit: nil) == nil, "another client's id")
            var missing = written
            missing.id = 999_999
            #expect(try store.writeChange(missing, expectedRevision: 2, audit: nil) == nil)
            #expect(store.changes(client: "shop") == [written])
            #expect(throws: StoreError.invalidClientID) { try store.openChange(Self.change("Bad Client"), audit: nil) }
        }
    }

    @Test("Changes are kept across a reopen, and ids never repeat", arguments: StoreFactory.all)
    func changesAreDurable(factory: StoreFactory) throws {
        try withStore(factory) { harness, store in
            let opened = try store.openChange(Self.change(), audit: nil)
            var closed = opened
            closed.state = .closed
            closed.reason = "not for this year"
            let written = try #require(try store.writeChange(closed, expectedRevision: 1, audit: nil))
            store.close()
            let reopened = try harness.open()
            defer { reopened.close() }
            #expect(reopened.changes(client: "shop") == [written])
            #expect(try reopened.openChange(Self.change(), audit: nil).id > opened.id)
        }
    }

    @Test("Every step of a change is audited with the change, its revision, state and approvals", arguments: StoreFactory.all)
    func changeStepsAreAudited(factory: StoreFactory) throws {
        try withStore(factory) { _, store in
            _ = try store.publish(client: "shop", document: Self.document(1), note: nil, rollbackOf: nil)
            let opened = try store.openChange(
                Self.change(), audit: AuditRecord(key: "ann", action: .openChange, requestID: "r1") { _ in AuditSummary() })
            var approved = opened
            approved.approvals = ["bob"]
            let written = try #require(
                try store.writeChange(
                    approved, expectedRevision: 1,
                    audit: AuditRecord(key: "bob", action: .approveChange, requestID: nil) { _ in AuditSummary() }))
            let entries = try store.auditEntries(AuditQuery(client: "shop")).filter { $0.change != nil }
            #expect(entries.map(\.action) == [.openChange, .approveChange])
            #expect(entries.map(\.key) == ["ann", "bob"])
            #expect(entries.last?.change == AuditChange(written))
            #expect(entries.first?.note == "Holiday tabs" && entries.first?.version == 1)
        }
    }
}
