extension TabBarStore {
    /// Deletes a client without an audit entry: `deleteClient(_:audit:)` with none.
    public func deleteClient(_ client: String) throws -> Bool {
        try deleteClient(client, audit: nil)
    }
}
