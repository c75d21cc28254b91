import TabBarStore

/// One store implementation the conformance suite runs against.
struct StoreFactory: Sendable, CustomStringConvertible {
    let description: String
    let make: @Sendable () throws -> any StoreHarness

    /// Every implementation this build has (the PostgreSQL store with the `PostgreSQL` trait).
    #if PostgreSQL
        static let all: [StoreFactory] = [.file, .postgres]
        static let postgres = StoreFactory(description: "PostgresStore") { try PostgresStoreHarness() }
    #else
        static let all: [StoreFactory] = [.file]
    #endif

    static let file = StoreFactory(description: "FileStore") { try FileStoreHarness() }
}
