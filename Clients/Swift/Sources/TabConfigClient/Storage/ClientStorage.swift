import Foundation

/// The client's files in its storage directory, per client and user: the last good answer, the pending save, and
/// the tab opens not yet reported with the mark of a tab being opened. All are written atomically; a file that does
/// not decode (damaged, or of another format) reads as absent and is replaced by the next write.
///
/// Several users of one app may share a directory: each (client, user) has files of its own, so one user's pending
/// save never replaces another's. For ``TabBarClient/User/me`` the user is the one the token's `sub` names
/// (``TokenSubject``); the client keeps no files while the token names no one. Earlier releases named the pending
/// save after the client only; such a save is still read when it is this client's and user's, and removed once this
/// one's file replaces it.
struct ClientStorage: Sendable {
    /// The directory holding the files.
    let directory: URL
    /// The client id the files are named after.
    let client: String
    /// The user's part of the file names; nil for the default tab bar.
    let user: String?
    /// For ``TabBarClient/User/me``: the user the token names.
    let subject: String?
    /// Whose save a pending save is, the client and user: a file of another is not read. Not the base URL: an app
    /// update that moves the service to another address still sends the save the user made before it.
    let owner: String

    /// The files of the client and user `configuration` names, in its storage directory. For
    /// ``TabBarClient/User/me`` the user is `subject`, the token's; without it these are the files earlier releases
    /// kept for every user of `.me`, which are never read and only removed.
    init(_ configuration: TabBarClient.Configuration, subject: String? = nil) {
        directory = configuration.storageDirectory
        client = configuration.client
        let path = configuration.user?.pathComponent
        if configuration.identifiesUserByToken, let subject {
            self.subject = subject
            user = "me.\(Self.digest(subject))"
            owner = "\(client)|me|\(subject)"
        } else {
            self.subject = nil
            user = path.map { $0.addingPercentEncoding(withAllowedCharacters: Self.fileNameCharacters) ?? $0 }
            owner = "\(client)|\(path ?? "")"
        }
    }

    /// Where the last good answer is kept.
    var answerFile: URL { directory.appendingPathComponent("\(stem).tab-bar.json") }
    /// Where the pending save is kept.
    var pendingFile: URL { directory.appendingPathComponent("\(stem).pending-save.json") }
    /// Where the tab opens not yet reported and the opening mark are kept.
    var reportsFile: URL { directory.appendingPathComponent("\(stem).reports.json") }
    /// Where earlier releases kept the pending save of every user of the client.
    private var sharedPendingFile: URL { directory.appendingPathComponent("\(client).pending-save.json") }

    /// The client id, and the user's part: an id made safe for a file name (percent-encoded past letters, digits,
    /// `-` and `_`), or for the token's user `me.` and a digest of its `sub` (a `.` an id never has unencoded). A
    /// leading `@` keeps a user's files apart from the default tab bar's.
    private var stem: String {
        guard let user else { return client }
        return "\(client).@\(user)"
    }

    private static let fileNameCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")

    /// FNV-1a (64 bits) of `text`'s UTF-8 in 16 hex digits: a short name, the same at every launch, for a `sub` of
    /// any length or character. Two users whose digests met would write over each other's files but never read
    /// them: the owner and the request a file holds are checked when it is read.
    private static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

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

    /// The tab opens not yet reported and the opening mark, or nil when there are none or they cannot be read.
    func loadReports() -> ReportsFile? {
        AtomicFile.read(reportsFile).flatMap { try? Self.decoder.decode(ReportsFile.self, from: $0) }
    }

    /// Keeps `reports`; the file goes when they hold nothing.
    func store(_ reports: ReportsFile) throws {
        if reports.isEmpty {
            try AtomicFile.remove(reportsFile)
        } else {
            try AtomicFile.write(Self.encoder.encode(reports), to: reportsFile)
        }
    }

    /// Removes the user's files: the last good answer, the tab opens not yet reported and the pending save.
    func removeAll() throws {
        try AtomicFile.remove(answerFile)
        try AtomicFile.remove(reportsFile)
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
