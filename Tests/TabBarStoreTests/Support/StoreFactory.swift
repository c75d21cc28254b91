import TabBarStore

/// One store implementation the conformance suite runs against.
struct StoreFactory: Sendable, CustomStringConvertible {
    let description: String
    let make: @Sendable () throws -> any StoreHarness

    /// Every implementation.
    static let all: [StoreFactory] = [.file, .postgres]

    static let file = StoreFactory(description: "FileStore") { try FileStoreHarness() }
    static let postgres = StoreFactory(description: "PostgresStore") { try PostgresStoreHarness() }
}
