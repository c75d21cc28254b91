import TabBarStore

/// Backing storage for the conformance suite: `open()` opens a store on the same storage every time, so a test can
/// close a store and reopen it; `remove()` deletes the storage.
protocol StoreHarness: Sendable {
    func open() throws -> any TabBarStore
    func remove()
}
