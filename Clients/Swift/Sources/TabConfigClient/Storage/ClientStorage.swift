import Foundation

/// The client's two files in its storage directory, per client and user: the last good answer and the pending
/// save. Both are written atomically; a file that does not decode (damaged, or of another format) reads as absent
/// and is replaced by the next write.
///
/// Several users of one app may share a directory: each (client, user) has files of its own, so one user's pending
/// save never replaces another's. Earlier releases named the pending save after the client only; such a save is
/// still read when it is this client's and user's, and removed once this one's file replaces it.
struct ClientStorage: Sendable {
    /// The directory holding the files.
    let directory: URL
    /// The client id the files are named after.
    let client: String
    /// The user the files are named after (``TabBarClient/User/pathComponent``); nil for the default tab bar.
    let user: String?
    /// Whose save a pending save is (``TabBarClient/Configuration/saveOwner``): a file of another is not read.
    let owner: String

    /// The files of the client and user `configuration` names, in its storage directory.
    init(_ configuration: TabBarClient.Configuration) {
        directory = configuration.storageDirectory
        client = configuration.client
        user = configuration.user?.pathComponent
        owner = configuration.saveOwner
    }

    /// Where the last good answer is kept.
    var answerFile: URL { directory.appendingPathComponent("\(stem).tab-bar.json") }
    /// Where the pending save is kept.
    var pendingFile: URL { directory.appendingPathComponent("\(stem).pending-save.json") }
    /// Where earlier releases kept the pending save of every user of the client.
    private var sharedPendingFile: URL { directory.appendingPathComponent("\(client).pending-save.json") }

    /// The client id, and the user's id made safe for a file name (percent-encoded past letters, digits, `-`
    /// and `_`; a leading `@` keeps a user's files apart from the default tab bar's).
    private var stem: String {
        guard let user else { return client }
        let safe = user.addingPercentEncoding(withAllowedCharacters: Self.fileNameCharacters) ?? user
        return "\(client).@\(safe)"
    }

    private static let fileNameCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")

    /// The last good answer, or nil when there is none or it cannot be read.
    func loadAnswer() -> CachedAnswer? {
        AtomicFile.read(answerFile).flatMap { try? Self.decoder.decode(CachedAnswer.self, from: $0) }
    }

    /// Keeps `answer` as the last good one.
    func store(_ answer: CachedAnswer) throws {
        try AtomicFile.write(Self.encoder.encode(answer), to: answerFile)
    }

    /// This client's and user's pending save, or nil when there is none or it cannot be read.
    func loadPending() -> PendingSave? {
        if let own = Self.pending(at: pendingFile), own.owner == owner {
            return own
        }
        return sharedPending()
    }

    /// Keeps `pending` as the pending save, durably, before it is sent.
    func store(_ pending: PendingSave) throws {
        try AtomicFile.write(Self.encoder.encode(pending), to: pendingFile)
        try removeSharedPending()
    }

    /// Removes the pending save, once the service stored it or refused it for good.
    func removePending() throws {
        try AtomicFile.remove(pendingFile)
        try removeSharedPending()
    }

    /// Removes the user's files: the last good answer and the pending save.
    func removeAll() throws {
        try AtomicFile.remove(answerFile)
        try removePending()
    }

    /// A pending save in the file an earlier release shared among the client's users, when it is this one's.
    private func sharedPending() -> PendingSave? {
        guard user != nil, let shared = Self.pending(at: sharedPendingFile), shared.owner == owner else { return nil }
        return shared
    }

    private func removeSharedPending() throws {
        if sharedPending() != nil {
            try AtomicFile.remove(sharedPendingFile)
        }
    }

    private static func pending(at file: URL) -> PendingSave? {
        AtomicFile.read(file).flatMap { try? decoder.decode(PendingSave.self, from: $0) }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
