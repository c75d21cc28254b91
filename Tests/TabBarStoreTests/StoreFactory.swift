import TabBarStore

/// One store implementation the conformance suite runs against.
struct StoreFactory: Sendable, CustomStringConvertible {
    let description: String
    let make: @Sendable () throws -> any StoreHarness

    /// Every implementation; a PostgreSQL store adds itself here.
    static let all: [StoreFactory] = [.file]

    static let file = StoreFactory(description: "FileStore") { try FileStoreHarness() }
}
