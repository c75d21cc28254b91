import Foundation

/// The payload of a `NOTIFY` on ``channel``, sent in the transaction of each write (so it is delivered when the
/// write commits, to every replica listening, this one included).
struct ChangeNotice: Codable, Sendable, Equatable {
    /// The channel replicas listen on.
    static let channel = "tabconfig_changes"
    /// The largest customization value sent inline in a ``Kind/customizations`` notice; a larger one is read from its
    /// row (`NOTIFY` payloads stop short of 8000 bytes). A notice holds the entries
    /// that start within its first ``batchedBytes`` bytes, so it stays below 8000 bytes: 3,800 bytes of earlier
    /// entries, one entry of at most 3,500 bytes of value and 200 of user id and revision, 250 of kind, origin and
    /// client.
    static let maximumBatchedValue = 3500
    /// How many bytes of entries start in one ``Kind/customizations`` notice.
    static let batchedBytes = 3800

    enum Kind: String, Codable, Sendable {
        /// A version was published: `client`, `version`, `prunedThrough`.
        case published = "v"
        /// A client was deleted: `client`, `version` (its last).
        case deleted = "d"
        /// A customization was reset, or saved by a release before ``customizations``: `client`, `user`, `revision`,
        /// `value` (absent when reset, or when `fetch`: too large to send).
        case customization = "c"
        /// A batch of tab-order saves of one client: `client`, `entries`.
        case customizations = "cs"
        /// A build manifest was registered or removed: `client`, `platform`, `appVersion`, `revision` (the new one,
        /// or the removed one's).
        case build = "b"
        /// A staged rollout's state of `client` was written, counted or removed: the client's are read again.
        case rollouts = "ro"
        /// A change request of `client` was opened or written: the client's are read again.
        case changes = "ch"
    }

    /// One save of a ``Kind/customizations`` notice.
    struct Entry: Codable, Sendable, Equatable {
        var user: String
        var revision: Int64
        /// Absent when `fetch`: too large to send.
        var value: StoredCustomization?
        var fetch: Bool?

        enum CodingKeys: String, CodingKey {
            case user = "u", revision = "r", value = "j", fetch = "f"
        }
    }

    var kind: Kind
    /// The store (process) that wrote it: a store skips its own notices, whose changes it has applied.
    var origin: String
    var client: String
    var version: Int?
    var prunedThrough: Int?
    var user: String?
    var revision: Int64?
    var value: StoredCustomization?
    var fetch: Bool?
    var entries: [Entry]?
    var platform: String?
    var appVersion: String?

    enum CodingKeys: String, CodingKey {
        case kind = "k", origin = "o", client = "c", version = "v", prunedThrough = "p", user = "u", revision = "r", value = "j"
        case fetch = "f", entries = "e", platform = "pl", appVersion = "av"
    }

    /// Reads a payload: ``RecordJSONReader`` for the usual notice, `JSONDecoder` for anything it leaves.
    static func read(_ payload: String) throws -> ChangeNotice {
        var payload = payload
        if let notice = payload.withUTF8({ try? RecordJSONReader.notice(UnsafeRawBufferPointer($0)) }) {
            return notice
        }
        return try JSONDecoder().decode(ChangeNotice.self, from: Data(payload.utf8))
    }

    /// The notice as `NOTIFY` sends it.
    func payload() -> String {
        // Encoding a struct of strings and numbers cannot fail.
        String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self)
    }
}
