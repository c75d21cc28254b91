/// Reads a `text/event-stream` as its bytes arrive, in chunks cut anywhere (the HTML standard, "Parsing an event
/// stream"): lines end with CR, LF or CR LF; a blank line dispatches the event; `:` starts a comment (the service's
/// heartbeats); `id:` sets the last event id, `retry:` the reconnection time.
struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var afterCarriageReturn = false
    private var atStart = true
    private var eventType = ""
    private var dataLines: [String] = []
    /// The id the stream last set: what a reconnection sends as `Last-Event-ID`.
    private(set) var lastEventID: String?
    /// The reconnection time in milliseconds the stream last asked for.
    private(set) var retry: Int?
    /// Comment lines read so far (heartbeats).
    private(set) var comments = 0

    init(lastEventID: String? = nil) {
        self.lastEventID = lastEventID
    }

    /// Parses the next bytes and returns the events they complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n") where afterCarriageReturn:
                afterCarriageReturn = false
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                afterCarriageReturn = byte == UInt8(ascii: "\r")
                if let event = endLine() { events.append(event) }
            default:
                afterCarriageReturn = false
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        if atStart {
            atStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        guard !bytes.isEmpty else { return dispatch() }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix(":") {
            comments += 1
            return nil
        }
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "event": eventType = String(value)
        case "data": dataLines.append(String(value))
        case "id" where !value.contains("\0"): lastEventID = String(value)
        case "retry" where !value.isEmpty && value.allSatisfy({ ("0"..."9").contains($0) }): retry = Int(value)
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            dataLines = []
        }
        guard !dataLines.isEmpty else { return nil }
        return ServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType, data: dataLines.joined(separator: "\n"), id: lastEventID)
    }
}
