/// One event of a `text/event-stream`, as the HTML standard's parsing dispatches it.
struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` field, `message` when the event named none.
    var type: String
    /// The `data:` lines, joined by line feeds.
    var data: String
    /// The last event id the stream set (`id:`), at this event.
    var id: String?
}
