/// One event of a `text/event-stream`, as the HTML standard's parsing dispatches it.
struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` field, `message` when the event named none.
    var type: String
    /// The `data:` lines, joined by line feeds.
    var data: String
    /// The last event id the stream set (`id:`), at this event.
    var id: String?
}

/// The data of the service's `version` event: a config version went live.
struct VersionEvent: Decodable, Sendable, Hashable {
    /// The version now live.
    var version: Int
    /// Its default locale.
    var locale: String?
    /// The ETag of its default tab bar in that locale.
    var etag: String?
}
