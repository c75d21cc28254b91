import Foundation
import Logging
import TestSupport
@testable import TabBarStore

/// A data directory with a journal of known records: one save per user, in order.
struct JournalFixture {
    let directory: TemporaryDirectory
    let users: [String]
    /// The journal's bytes after the saves.
    let bytes: Data
    /// Byte offset of each record, in order; the journal header comes before the first.
    let offsets: [Int]

    static let client = "c1"

    static func value(for user: String) -> StoredCustomization {
        StoredCustomization(order: ["home", "feed-\(user)", "inbox"], hidden: ["inbox"])
    }

    init(users: [String] = ["alice", "bob", "carol", "dave", "erin"]) throws {
        directory = try TemporaryDirectory("journal")
        self.users = users
        let store = try FileStore(directory: directory.child("data"), logger: .silent)
        for user in users {
            let value = Self.value(for: user)
            _ = try store.saveCustomization(client: Self.client, user: user, value, expectedRevision: nil)
        }
        store.close()
        bytes = try Data(contentsOf: URL(fileURLWithPath: directory.path("data", "customizations.journal")))
        var offsets: [Int] = []
        let outcome = bytes.withUnsafeBytes { raw in
            RecordFraming.scan(raw, from: JournalFile.magic.count) { offsets.append($0.offset) }
        }
        precondition(outcome == .clean && offsets.count == users.count, "the fixture journal is well formed")
        self.offsets = offsets
    }

    /// A fresh data directory whose journal is `journal`.
    func dataDirectory(
        withJournal journal: Data
    ) throws -> (directory: TemporaryDirectory, data: URL, journal: String) {
        let copy = try TemporaryDirectory("journal-copy")
        let data = copy.child("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let journalPath = data.appendingPathComponent("customizations.journal").path
        try journal.write(to: URL(fileURLWithPath: journalPath))
        return (copy, data, journalPath)
    }

    func remove() {
        directory.remove()
    }
}
