import PostgresNIO

/// The statement that writes a batch of tab-order saves (of distinct keys), each with its own expected revision, and
/// sends their ``ChangeNotice``s: one ``ChangeNotice/Kind/customizations`` notice per client and per
/// ``ChangeNotice/batchedBytes`` of entries, rather than one per save, since every replica reads every notice.
///
/// A prepared statement: postgres-nio prepares it once per connection, so PostgreSQL parses and plans it once rather
/// than for every batch (which, at batches of a few saves, cost the database more than the writes).
struct SaveStatement: PostgresPreparedStatement {
    static let name = "tabconfig_save_batch"

    /// Each row is a save that was written: client, user, new revision.
    typealias Row = (client: String, user: String, revision: Int64)

    static var bindingDataTypes: [PostgresDataType] { [.textArray, .textArray, .textArray, .int8Array, .text] }

    static let sql = """
        WITH input AS (
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) AS i(client, user_id, value, expected)
        ), matched AS (
            UPDATE tabconfig_customizations AS c SET revision = c.revision + 1, value = i.value::jsonb
            FROM input AS i
            WHERE i.expected > 0 AND c.client = i.client AND c.user_id = i.user_id AND c.revision = i.expected
                AND c.value IS NOT NULL
            RETURNING c.client, c.user_id, c.revision
        ), unconditional AS (
            INSERT INTO tabconfig_customizations AS c (client, user_id, revision, value)
            SELECT client, user_id, 1, value::jsonb FROM input WHERE expected = -1 ORDER BY client, user_id
            ON CONFLICT (client, user_id) DO UPDATE SET revision = c.revision + 1, value = EXCLUDED.value
            RETURNING c.client, c.user_id, c.revision
        ), created AS (
            INSERT INTO tabconfig_customizations AS c (client, user_id, revision, value)
            SELECT client, user_id, 1, value::jsonb FROM input WHERE expected = 0 ORDER BY client, user_id
            ON CONFLICT (client, user_id) DO UPDATE SET revision = c.revision + 1, value = EXCLUDED.value
            WHERE c.value IS NULL
            RETURNING c.client, c.user_id, c.revision
        ), written AS (
            SELECT * FROM matched UNION ALL SELECT * FROM unconditional UNION ALL SELECT * FROM created
        ), entries AS (
            SELECT w.client, w.user_id, w.revision, (CASE
                WHEN octet_length(i.value) <= \(ChangeNotice.maximumBatchedValue)
                THEN json_build_object('u', w.user_id, 'r', w.revision, 'j', i.value::json)
                ELSE json_build_object('u', w.user_id, 'r', w.revision, 'f', true)
                END)::text AS entry
            FROM written AS w JOIN input AS i ON i.client = w.client AND i.user_id = w.user_id
        ), parts AS (
            SELECT client, user_id, revision, entry, (sum(octet_length(entry) + 1) OVER (
                PARTITION BY client ORDER BY user_id) - octet_length(entry) - 1) / \(ChangeNotice.batchedBytes) AS part
            FROM entries
        ), sent AS MATERIALIZED (
            SELECT pg_notify('\(ChangeNotice.channel)', '{"k":"cs","o":' || to_json($5::text)::text
                || ',"c":' || to_json(client)::text || ',"e":[' || string_agg(entry, ',') || ']}')
            FROM parts GROUP BY client, part
        )
        SELECT p.client, p.user_id, p.revision FROM parts AS p, (SELECT count(*) FROM sent) AS s
        """

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
        try row.decode((String, String, Int64).self)
    }
}
