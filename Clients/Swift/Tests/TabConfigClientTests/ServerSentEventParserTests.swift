import Testing

@testable import TabConfigClient

@Suite("ServerSentEventParser: the event stream's bytes, cut anywhere")
struct ServerSentEventParserTests {
    private let stream = Array(
        (": heartbeat\n\nid: 2\nevent: version\ndata: {\"etag\":\"\\\"t2-en\\\"\",\"locale\":\"en\",\"version\":2}\n\n"
            + "event: deleted\r\ndata: {\"client\":\"app\"}\r\n\r\n").utf8)

    @Test("The service's events, comments and ids, fed whole or one byte at a time, give the same events")
    func chunks() {
        var whole = ServerSentEventParser()
        let expected = whole.feed(stream)
        #expect(expected.map(\.type) == ["version", "deleted"])
        #expect(expected.first?.data == "{\"etag\":\"\\\"t2-en\\\"\",\"locale\":\"en\",\"version\":2}")
        #expect(expected.map(\.id) == ["2", "2"])
        #expect(whole.lastEventID == "2")
        #expect(whole.comments == 1)
        for size in [1, 2, 7, 33] {
            var parser = ServerSentEventParser()
            var events: [ServerSentEvent] = []
            var index = 0
            while index < stream.count {
                events += parser.feed(stream[index..<min(index + size, stream.count)])
                index += size
            }
            #expect(events == expected)
        }
    }

    @Test("Data lines join with line feeds; CR alone ends a line; an event without data is not dispatched")
    func fields() {
        var parser = ServerSentEventParser(lastEventID: "7")
        let events = parser.feed(Array("data: one\rdata:two\n\nevent: empty\n\nretry: 3000\nid\ndata\n\n".utf8))
        #expect(events == [
            ServerSentEvent(type: "message", data: "one\ntwo", id: "7"),
            ServerSentEvent(type: "message", data: "", id: ""),
        ])
        #expect(parser.retry == 3000)
    }
}
