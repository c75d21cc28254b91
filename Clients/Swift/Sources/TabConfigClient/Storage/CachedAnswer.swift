import Foundation

/// The last good answer, as kept on disk: the body the service sent, its ETag, and what request it answers (the
/// URL with the context's parameters, the user, the language asked for), so that an answer to another request is
/// never served.
struct CachedAnswer: Codable, Sendable, Hashable {
    /// What request the answer belongs to (``TabBarClient/RequestKey``'s text).
    var request: String
    /// The answer's ETag.
    var etag: String?
    /// The body as the service sent it.
    var body: Data
    /// When the service sent or last confirmed it.
    var receivedAt: Date
}
