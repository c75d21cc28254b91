/// The data of the service's `version` event: a config version went live.
struct VersionEvent: Decodable, Sendable, Hashable {
    /// The version now live.
    var version: Int
    /// Its default locale.
    var locale: String?
    /// The ETag of its default tab bar in that locale.
    var etag: String?
}
