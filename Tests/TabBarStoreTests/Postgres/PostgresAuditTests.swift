#if PostgreSQL
import Foundation
import Testing
import TestSupport
@testable import TabBarStore

/// The audit log in PostgreSQL beyond the conformance suite: several stores on one database, and the copy from a file
/// store.
@Suite("audit log in PostgreSQL")
struct PostgresAuditTests {
    private static func open(_ url: String) throws -> PostgresStore {
        try PostgresStore(url: try #require(PostgresStoreURL(url)), logger: .silent)
    }

    private static func document(_ n: Int) -> Data {
        Data(#"{"tabs":[{"id":"home","n":\#(n)}]}"#.utf8)
    }

    @Test("two stores on one database publishing the same client with audit: one sequence, no entry lost")
    func twoStoresOneSequence() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let replicas = [try Self.open(url), try Self.open(url)]
        defer { replicas.forEach { $0.close() } }
        let recorder = AuditRecorder()
        let outcomes = Concurrently.run(8) { thread in
            (0..<5).map { round in
                let store = replicas[thread % 2]
                // Every third publish expects the version its store shows, which the other store may have passed.
                let expected = round % 3 == 2 ? store.liveVersion(client: "shared")?.version ?? 0 : nil
                return Result {
                    try store.publish(
                        client: "shared", document: Self.document(10 * thread + round), note: "t\(thread)",
                        rollbackOf: nil, expectedVersion: expected, audit: recorder.record(.publish, key: "t\(thread)"))
                }
            }
        }
        let published = outcomes.flatMap { $0.compactMap { try? $0.get() } }
        let documents = Dictionary(uniqueKeysWithValues: published.map { ($0.version, $0.document) })
        let entries = try replicas[0].auditEntries(AuditQuery(limit: 1000))
        #expect(entries.count == published.count)
        #expect(try replicas[1].auditEntries(AuditQuery(limit: 1000)) == entries)
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        #expect(entries.map(\.version) == Array(1...published.count), "sequence order is commit order")
        #expect(entries.map(\.previousVersion) == [nil] + (1..<published.count).map { $0 })
        let notes = Dictionary(uniqueKeysWithValues: published.map { ($0.version, $0.note) })
        #expect(entries.allSatisfy { notes[$0.version] == $0.note && $0.key == $0.note }, "each its publisher's")
        let previous = recorder.previous
        #expect(previous.count == published.count)
        #expect(previous.compactMap { $0 }.allSatisfy { documents[$0.version] == $0.document })
        #expect(try TestPostgres.sql(url, "SELECT count(*) FROM tabconfig_audit") == "\(published.count)")
    }

    @Test("migrate-store copies the audit log in its order, once")
    func migrationCopiesAudit() throws {
        let directory = try TemporaryDirectory("audit-migrate")
        defer { directory.remove() }
        let source = try FileStore(directory: directory.child("data"), logger: .silent)
        defer { source.close() }
        let recorder = AuditRecorder()
        let changes: [(String, AuditAction)] = [
            ("ios", .publish), ("web", .import), ("ios", .publish), ("ios", .rollback),
        ]
        for (client, action) in changes {
            _ = try source.publish(
                client: client, document: Self.document(1), note: "\(action)",
                rollbackOf: action == .rollback ? 1 : nil, expectedVersion: nil,
                audit: recorder.record(action, requestID: "\(client)-\(action)"))
        }
        _ = try source.publish(client: "ios", document: Self.document(9), note: nil, rollbackOf: nil)
        #expect(try source.deleteClient("web", audit: recorder.record(.delete, key: "root")))
        let copied = try source.auditEntries(AuditQuery())
        try #require(copied.count == 5)

        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let target = try Self.open(url)
        defer { target.close() }
        let first = try StoreMigration.run(from: source, to: target) { _, _ in }
        #expect(first.auditEntries == 5 && first.auditEntriesWritten == 5)
        let second = try StoreMigration.run(from: source, to: target) { _, _ in }
        #expect(second.auditEntries == 5 && second.auditEntriesWritten == 0)

        let entries = try target.auditEntries(AuditQuery())
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        func unnumbered(_ entry: AuditEntry) -> AuditEntry {
            var entry = entry
            entry.sequence = 0
            entry.time = PostgresStore.date(milliseconds: PostgresStore.milliseconds(entry.time))
            return entry
        }
        #expect(entries.map(unnumbered) == copied.map(unnumbered))
        let later = try target.publish(
            client: "ios", document: Self.document(5), note: nil, rollbackOf: nil, expectedVersion: 4,
            audit: recorder.record(.publish))
        let all = try target.auditEntries(AuditQuery())
        #expect(all.count == 6 && all.last?.version == later.version && all.last!.sequence > entries.last!.sequence)
    }
}
#endif
