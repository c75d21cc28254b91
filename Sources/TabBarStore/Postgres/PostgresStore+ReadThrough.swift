#if PostgreSQL
import Foundation

/// Reading through the cache, for a request that names what another replica wrote and this one has not yet applied
/// (its notice is on the way): docs/design/stores.md, "The PostgreSQL store".
extension PostgresStore {
    public var isShared: Bool { true }

    public func readThrough(client: String, user: String?, completion: @escaping @Sendable (_ read: Bool) -> Void) {
        // Known to be away: say so at once rather than after the store's timeout.
        guard unavailableReason == nil else { return completion(false) }
        let known = cache.withLock { $0.clients[client]?.versions.keys.max() ?? 0 }
        let read = operation { database, logger -> ([ConfigVersion], CustomizationEntry?) in
            let versions = try await Self.versions(database, client, after: known, logger)
            guard let user else { return (versions, nil) }
            let entry = try await Self.customizations(database, of: client, user: user, logger).first?.1
            return (versions, entry)
        }
        DatabaseTask.start(read) { [self] result in
            guard case .success(let (versions, entry)) = result else {
                completion(false)
                return
            }
            cache.withLock { cache in
                for version in versions { cache.addVersion(version, prunedThrough: 0) }
                if let user, let entry {
                    cache.setCustomization(CustomizationKey(client: client, user: user), entry)
                }
            }
            if !versions.isEmpty { observer.withLock { $0 }?(.published(client: client)) }
            completion(true)
        }
    }
}
#endif
