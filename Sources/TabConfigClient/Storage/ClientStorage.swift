import Foundation

/// The client's two files in its storage directory, per client id: the last good answer and the pending save.
/// Both are written atomically; a file that does not decode (damaged, or of another format) reads as absent and is
/// replaced by the next write.
struct ClientStorage: Sendable {
    /// The directory holding the files.
    let directory: URL
    /// The client id the files are named after.
    let client: String

    private var answerFile: URL { directory.appendingPathComponent("\(client).tab-bar.json") }
    /// Where the pending save is kept.
    var pendingFile: URL { directory.appendingPathComponent("\(client).pending-save.json") }

    /// The last good answer, or nil when there is none or it cannot be read.
    func loadAnswer() -> CachedAnswer? {
        AtomicFile.read(answerFile).flatMap { try? Self.decoder.decode(CachedAnswer.self, from: $0) }
    }

    /// Keeps `answer` as the last good one.
    func store(_ answer: CachedAnswer) throws {
        try AtomicFile.write(Self.encoder.encode(answer), to: answerFile)
    }

    /// The pending save, or nil when there is none or it cannot be read.
    func loadPending() -> PendingSave? {
        AtomicFile.read(pendingFile).flatMap { try? Self.decoder.decode(PendingSave.self, from: $0) }
    }

    /// Keeps `pending` as the pending save, durably, before it is sent.
    func store(_ pending: PendingSave) throws {
        try AtomicFile.write(Self.encoder.encode(pending), to: pendingFile)
    }

    /// Removes the pending save, once the service stored it or refused it for good.
    func removePending() throws {
        try AtomicFile.remove(pendingFile)
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
