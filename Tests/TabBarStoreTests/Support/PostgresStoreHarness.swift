#if PostgreSQL
import Foundation
import TabBarStore
import TestSupport

/// A `PostgresStore` on a database of its own in the test cluster (`TestPostgres`).
struct PostgresStoreHarness: StoreHarness {
    let url: String

    init() throws {
        url = try TestPostgres.createDatabase()
    }

    func open() throws -> any TabBarStore {
        guard let parsed = PostgresStoreURL(url) else { throw TestPostgresError(message: "bad URL \(url)") }
        return try PostgresStore(url: parsed, logger: .silent)
    }

    func remove() {
        TestPostgres.dropDatabase(url)
    }
}
#endif
