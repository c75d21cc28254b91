/// Every customization in memory, keyed by client then user, and the last version number of every deleted client.
///
/// Reset keys stay as tombstones so that their revision numbering continues; deleting a client resets its keys the
/// same way (each keeps its revision) and remembers its last version number, so no number is ever handed out twice.
struct CustomizationTable: Sendable {
    /// What a key holds.
    enum Slot: Sendable, Equatable {
        case value(StoredCustomization)
        /// Saved, but the stored value could not be decoded.
        case corrupt
        /// Reset: no customization, but the revision is remembered.
        case reset
    }

    /// One key's state.
    struct Item: Sendable, Equatable {
        var revision: UInt64
        var slot: Slot
    }

    private(set) var clients: [String: [String: Item]] = [:]
    /// Keys that hold a customization (not reset).
    private(set) var liveCount = 0
    /// The newest version number each deleted client had.
    private(set) var deletedClientVersions: [String: Int] = [:]

    /// The key's state, including tombstones.
    func item(_ key: CustomizationKey) -> Item? {
        clients[key.client]?[key.user]
    }

    /// The entry readers see: nil when the key was never saved or is reset.
    func entry(_ key: CustomizationKey) -> CustomizationEntry? {
        guard let item = item(key) else { return nil }
        switch item.slot {
        case .value(let value): return CustomizationEntry(revision: item.revision, value: value)
        case .corrupt: return CustomizationEntry(revision: item.revision, value: nil)
        case .reset: return nil
        }
    }

    /// Whether the client has a key holding a customization (not reset).
    func hasCustomizations(client: String) -> Bool {
        clients[client]?.values.contains { $0.slot != .reset } ?? false
    }

    /// Applies one change. A put or delete whose revision is not newer than the key's is skipped (it is already
    /// reflected), which makes replaying a journal over a snapshot idempotent. Returns whether anything changed.
    @discardableResult
    mutating func apply(_ change: JournalRecord.Change) -> Bool {
        switch change {
        case .put(let key, let revision, let value):
            return set(key, Item(revision: revision, slot: value.map(Slot.value) ?? .corrupt))
        case .delete(let key, let revision):
            return set(key, Item(revision: revision, slot: .reset))
        case .deleteClient(let client, let lastVersion):
            var changed = false
            if let lastVersion, lastVersion > deletedClientVersions[client] ?? 0 {
                deletedClientVersions[client] = lastVersion
                changed = true
            }
            guard var users = clients[client] else { return changed }
            for (user, item) in users where item.slot != .reset {
                users[user] = Item(revision: item.revision, slot: .reset)
                liveCount -= 1
                changed = true
            }
            clients[client] = users
            return changed
        }
    }

    /// Every deleted client's last version number, then every key, as records for a snapshot. The client records
    /// come first so that loading them resets nothing.
    func records() -> some Sequence<JournalRecord> {
        let deleted = deletedClientVersions.lazy.map { client, lastVersion in
            JournalRecord(sequence: nil, change: .deleteClient(client, lastVersion: lastVersion))
        }
        let keys = clients.lazy.flatMap { client, users in
            users.lazy.map { user, item in
                let key = CustomizationKey(client: client, user: user)
                switch item.slot {
                case .value(let value):
                    return JournalRecord(sequence: nil, change: .put(key, revision: item.revision, value: value))
                case .corrupt:
                    return JournalRecord(sequence: nil, change: .put(key, revision: item.revision, value: nil))
                case .reset:
                    return JournalRecord(sequence: nil, change: .delete(key, revision: item.revision))
                }
            }
        }
        return [AnySequence(deleted), AnySequence(keys)].joined()
    }

    /// Number of keys, tombstones included.
    var keyCount: Int {
        clients.values.reduce(0) { $0 + $1.count }
    }

    /// Number of records `records()` yields.
    var recordCount: Int {
        deletedClientVersions.count + keyCount
    }

    private mutating func set(_ key: CustomizationKey, _ item: Item) -> Bool {
        let previous = clients[key.client]?[key.user]
        if let previous, previous.revision >= item.revision { return false }
        if previous.map({ $0.slot != .reset }) ?? false { liveCount -= 1 }
        if item.slot != .reset { liveCount += 1 }
        clients[key.client, default: [:]][key.user] = item
        return true
    }
}
