extension TabBarStore {
    /// Runs the blocking `saveCustomization` and reports its outcome, for stores without an asynchronous path.
    public func saveCustomization(
        client: String, user: String, _ value: StoredCustomization, expectedRevision: UInt64?,
        completion: @escaping @Sendable (Result<CustomizationEntry, any Error>) -> Void
    ) {
        completion(Result { try saveCustomization(client: client, user: user, value, expectedRevision: expectedRevision) })
    }
}
