import Foundation

/// The file store's change requests: every client's, in memory and in `changes.json` in the data directory, which
/// each step rewrites whole and atomically (temp file, fsync, rename, directory fsync), as `builds.json` is. Changes
/// are made by people, a few a day. The file keeps the last id given out, so that an id never names two changes.
struct ChangeTable: Sendable {
    /// The file's name in the data directory.
    static let fileName = "changes.json"

    private(set) var changes: [Int: ChangeRequest] = [:]
    /// The last id given out.
    private(set) var lastID = 0

    /// The changes of `client` (every client's when nil), by id.
    func changes(client: String?) -> [ChangeRequest] {
        changes.values.filter { client == nil || $0.client == client }.sorted { $0.id < $1.id }
    }

    /// The table with `change` opened at `date`: the next id, revision 1.
    func opening(_ change: ChangeRequest, at date: Date) -> (table: ChangeTable, change: ChangeRequest) {
        var table = self
        table.lastID += 1
        var opened = change
        opened.id = table.lastID
        opened.revision = 1
        opened.state = .open
        opened.createdAt = date
        opened.updatedAt = date
        opened.publishAt = change.publishAt.map(StoredTime.rounded)
        table.changes[opened.id] = opened
        return (table, opened)
    }

    /// The table with `change` written as its next revision at `date`.
    func writing(_ change: ChangeRequest, at date: Date) -> (table: ChangeTable, change: ChangeRequest) {
        var table = self
        var written = change
        written.revision = (changes[change.id]?.revision ?? 0) + 1
        written.updatedAt = date
        written.publishAt = change.publishAt.map(StoredTime.rounded)
        table.changes[written.id] = written
        return (table, written)
    }

    private struct File: Codable {
        var format: Int
        var lastID: Int
        var changes: [ChangeRequest]
    }

    /// The file's bytes.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(File(format: 1, lastID: lastID, changes: changes(client: nil)))
    }

    /// The table a file holds.
    static func decode(_ data: Data) throws -> ChangeTable {
        let file = try JSONDecoder().decode(File.self, from: data)
        guard file.format == 1 else {
            throw StoreOpenError("\(fileName) has format \(file.format), which this release does not read")
        }
        var table = ChangeTable()
        table.lastID = file.lastID
        for change in file.changes {
            table.changes[change.id] = change
            table.lastID = max(table.lastID, change.id)
        }
        return table
    }
}
