/// One customization change as written to the journal (and, for puts and deletes, to the snapshot).
///
/// The payload is compact JSON: `{"op":"put","seq":7,"client":"c","user":"u","revision":3,"value":{...}}`.
/// Revisions are absolute and `seq` increases by one per record across the store's life, so replaying records
/// that a snapshot already contains changes nothing. A client deletion is
/// `{"op":"deleteClient","seq":8,"client":"c","lastVersion":5}`: `lastVersion` is the newest version number the client
/// had, so that numbering continues after it (absent when the client had no version).
struct JournalRecord: Sendable, Equatable {
    /// What changed.
    enum Change: Sendable, Equatable {
        /// A saved customization. `value` is nil when the stored value could not be decoded.
        case put(CustomizationKey, revision: UInt64, value: StoredCustomization?)
        /// A reset customization; the key keeps counting revisions from `revision`.
        case delete(CustomizationKey, revision: UInt64)
        /// Every customization of the client reset (each key keeps its revision), and the client's versions removed
        /// after `lastVersion`, the newest number it had (nil when it had none).
        case deleteClient(String, lastVersion: Int?)
    }

    /// Position in the store's history; nil in snapshot records and in records written without one.
    var sequence: UInt64?
    var change: Change
}

extension JournalRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case op, seq, client, user, revision, value, lastVersion
    }

    private enum Operation: String, Codable {
        case put, delete, deleteClient
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try container.decodeIfPresent(UInt64.self, forKey: .seq)
        let client = try container.decode(String.self, forKey: .client)
        switch try container.decode(Operation.self, forKey: .op) {
        case .put:
            let key = CustomizationKey(client: client, user: try container.decode(String.self, forKey: .user))
            let revision = try container.decode(UInt64.self, forKey: .revision)
            let value = try? container.decodeIfPresent(StoredCustomization.self, forKey: .value)
            change = .put(key, revision: revision, value: value ?? nil)
        case .delete:
            let key = CustomizationKey(client: client, user: try container.decode(String.self, forKey: .user))
            change = .delete(key, revision: try container.decode(UInt64.self, forKey: .revision))
        case .deleteClient:
            change = .deleteClient(client, lastVersion: try container.decodeIfPresent(Int.self, forKey: .lastVersion))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(sequence, forKey: .seq)
        switch change {
        case .put(let key, let revision, let value):
            try container.encode(Operation.put, forKey: .op)
            try container.encode(key.client, forKey: .client)
            try container.encode(key.user, forKey: .user)
            try container.encode(revision, forKey: .revision)
            if let value {
                try container.encode(value, forKey: .value)
            } else {
                try container.encodeNil(forKey: .value)
            }
        case .delete(let key, let revision):
            try container.encode(Operation.delete, forKey: .op)
            try container.encode(key.client, forKey: .client)
            try container.encode(key.user, forKey: .user)
            try container.encode(revision, forKey: .revision)
        case .deleteClient(let client, let lastVersion):
            try container.encode(Operation.deleteClient, forKey: .op)
            try container.encode(client, forKey: .client)
            try container.encodeIfPresent(lastVersion, forKey: .lastVersion)
        }
    }
}
