#if PostgreSQL
import PostgresNIO

/// Writes a batch of tab-order saves (of distinct keys), each with its own expected revision, sends their
/// ``ChangeNotice``s and commits, in one round trip: `CALL` of the procedure `tabconfig_save_batch` (migration 3 of
/// ``PostgresMigrations``), which commits before it returns the saves it wrote. One
/// ``ChangeNotice/Kind/customizations`` notice per client and per ``ChangeNotice/batchedBytes`` of entries, rather
/// than one per save, since every replica reads every notice.
///
/// A prepared statement: postgres-nio prepares it once per connection, so PostgreSQL parses it once rather than for
/// every batch.
struct SaveStatement: PostgresPreparedStatement {
    static let name = "tabconfig_save_batch_call"

    /// The one row: the client, user and new revision of each save that was written, in three arrays of one
    /// length (NULL when none was).
    typealias Row = (clients: [String]?, users: [String]?, revisions: [Int64]?)

    static var bindingDataTypes: [PostgresDataType] { [.textArray, .textArray, .textArray, .int8Array, .text] }

    static let sql = "CALL tabconfig_save_batch($1, $2, $3, $4, $5, NULL, NULL, NULL)"

    /// The batch, in the order of its saves.
    var batch: [SaveBatcher.Save]
    /// This store's id in the notices.
    var origin: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(batch.map(\.key.client))
        bindings.append(batch.map(\.key.user))
        bindings.append(batch.map(\.json))
        // -1 stands for no expected revision (revisions start at 1; 0 is "none yet").
        bindings.append(batch.map { $0.expectedRevision.map(Int64.init) ?? -1 })
        bindings.append(origin)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(([String]?, [String]?, [Int64]?).self)
    }
}
#endif
