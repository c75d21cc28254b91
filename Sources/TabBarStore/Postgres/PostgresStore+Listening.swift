#if PostgreSQL
import Foundation
import Logging
import PostgresNIO

/// How a PostgreSQL store learns of other replicas' writes: it `LISTEN`s on ``ChangeNotice/channel`` on a connection
/// of its own, re-reads everything each time that connection is (re)established, then applies each notice.
extension PostgresStore {
    /// Listens until the task is cancelled (``close()``). `loaded` is called after each full read: the first one
    /// completes the opening.
    func listenForChanges(loaded: @escaping @Sendable () -> Void) async {
        var delay = Duration.milliseconds(100)
        var reads = 0
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: ChangeNotice.channel) { notices in
                        // Listening first, reading second: a write committed after the read is in a notice.
                        let fresh = try await Self.load(client, logger: logger)
                        cache.withLock { $0 = fresh }
                        outage.withLock { $0 = nil }
                        reads += 1
                        if reads > 1 {
                            logger.notice("PostgreSQL store: listening again; re-read every config and tab order")
                            observer.withLock { $0 }?(.reloaded)
                        }
                        loaded()
                        delay = .milliseconds(100)
                        for try await notice in notices {
                            try await apply(notice.payload)
                        }
                    }
                }
                if Task.isCancelled { return }
                lost("the listening connection closed")
            } catch {
                if Task.isCancelled { return }
                lost("the database cannot be reached (\(String(describing: error).prefix(200)))")
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }

    /// Marks the database unreachable until the store listens again: its notices can no longer be relied on.
    private func lost(_ reason: String) {
        let first = outage.withLock { outage in
            defer { outage = reason }
            return outage == nil
        }
        if first { logger.error("PostgreSQL store: \(reason); writes fail until it listens again") }
    }

    /// Applies one notice of another store's write to the cache, reading from the database what it does not carry,
    /// and tells the observer of config changes.
    private func apply(_ payload: String) async throws {
        guard let notice = try? ChangeNotice.read(payload) else {
            logger.error("PostgreSQL store: an unreadable notice was ignored", metadata: ["payload": "\(payload)"])
            return
        }
        guard notice.origin != origin else { return }
        switch notice.kind {
        case .published:
            guard let number = notice.version, let version = try await Self.version(client, notice.client, number, logger)
            else { return }
            cache.withLock { $0.addVersion(version, prunedThrough: notice.prunedThrough ?? 0) }
            observer.withLock { $0 }?(.published(client: notice.client))
        case .deleted:
            let customizations = try await Self.customizations(client, of: notice.client, logger)
            cache.withLock { cache in
                cache.deleteClient(notice.client, through: notice.version ?? 0)
                for (user, entry) in customizations {
                    cache.setCustomization(CustomizationKey(client: notice.client, user: user), entry)
                }
            }
            observer.withLock { $0 }?(.deleted(client: notice.client))
        case .customization:
            guard let user = notice.user, let revision = notice.revision else { return }
            let key = CustomizationKey(client: notice.client, user: user)
            let entry: CustomizationEntry?
            if notice.fetch == true {
                entry = try await Self.customizations(client, of: notice.client, user: user, logger).first?.1
            } else {
                entry = CustomizationEntry(revision: UInt64(revision), value: notice.value)
            }
            if let entry { cache.withLock { $0.setCustomization(key, entry) } }
        case .customizations:
            var entries: [(CustomizationKey, CustomizationEntry)] = []
            for entry in notice.entries ?? [] {
                let key = CustomizationKey(client: notice.client, user: entry.user)
                if entry.fetch == true {
                    guard let stored = try await Self.customizations(client, of: notice.client, user: entry.user, logger)
                        .first?.1
                    else { continue }
                    entries.append((key, stored))
                } else {
                    entries.append((key, CustomizationEntry(revision: UInt64(entry.revision), value: entry.value)))
                }
            }
            cache.withLock { cache in
                for (key, entry) in entries { cache.setCustomization(key, entry) }
            }
        case .build:
            try await applyBuildNotice(notice)
        case .rollouts:
            let states = try await Self.rolloutStates(client, of: notice.client, logger: logger)
            cache.withLock { $0.setRollouts(client: notice.client, states) }
            observer.withLock { $0 }?(.rollouts(client: notice.client))
        case .changes:
            let changes = try await Self.changes(client, of: notice.client, logger: logger)
            cache.withLock { $0.setChanges(client: notice.client, changes) }
            observer.withLock { $0 }?(.changes(client: notice.client))
        }
    }
}
#endif
