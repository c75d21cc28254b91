import Foundation
import MicroHTTPTesting
import Testing

@Suite("server-sent events")
struct EventStreamTests {
    @Test("the live version comes first, then one event per publish, and heartbeats")
    func liveThenPublishes() throws {
        try TestApp.with(configure: { $0.eventHeartbeat = 1 }) { app in
            let events = try EventReader(port: app.port, path: "/v1/clients/ios-phone/tabs/events")
            defer { events.close() }
            #expect(events.head.status == 200)
            #expect(events.head.headers["Content-Type"] == "text/event-stream")
            #expect(try events.next() == "id: 1\nevent: version\ndata: {\"etag\":\"\\\"t1-en\\\"\",\"locale\":\"en\",\"version\":1}")
            try app.publish("ios-phone", Fixtures.designExample)
            #expect(try events.next(skippingHeartbeats: true).hasPrefix("id: 2\n"))
            #expect(try events.next() == ": heartbeat")
        }
    }

    @Test("Last-Event-ID naming the live version skips it; a reconnect after a publish gets the new one")
    func lastEventID() throws {
        try TestApp.with { app in
            let current = try EventReader(port: app.port, path: "/v1/clients/ios-phone/tabs/events", lastEventID: "1")
            defer { current.close() }
            try app.publish("ios-phone", Fixtures.designExample)
            #expect(try current.next().hasPrefix("id: 2\n"))

            let behind = try EventReader(port: app.port, path: "/v1/clients/ios-phone/tabs/events", lastEventID: "1")
            defer { behind.close() }
            #expect(try behind.next().hasPrefix("id: 2\n"))
        }
    }

    @Test("200 concurrent subscribers each receive every publish, in order")
    func twoHundredSubscribers() throws {
        try TestApp.with { app in
            let readers = try (0..<200).map { _ in
                try EventReader(port: app.port, path: "/v1/clients/ios-phone/tabs/events")
            }
            defer { readers.forEach { $0.close() } }
            for reader in readers { _ = try reader.next() }
            try app.publish("ios-phone", Fixtures.designExample)
            try app.publish("ios-phone", Fixtures.config([Fixtures.tab("home"), Fixtures.tab("search")]))
            let received = Counter()
            DispatchQueue.concurrentPerform(iterations: readers.count) { index in
                let first = try? readers[index].next(skippingHeartbeats: true)
                let second = try? readers[index].next(skippingHeartbeats: true)
                if first?.hasPrefix("id: 2\n") == true, second?.hasPrefix("id: 3\n") == true { received.increment() }
            }
            #expect(received.value == 200)
            #expect(try app.request("GET", "/healthz").status == 200)
        }
    }

    @Test("subscribers beyond the limit get 503; unknown clients 404")
    func limits() throws {
        try TestApp.with(configure: { $0.maxEventSubscribers = 2 }) { app in
            let first = try EventReader(port: app.port, path: "/v1/clients/ios-phone/tabs/events")
            let second = try EventReader(port: app.port, path: "/v1/clients/ios-phone/tabs/events")
            defer { first.close(); second.close() }
            let third = try app.request("GET", "/v1/clients/ios-phone/tabs/events")
            #expect(third.status == 503)
            #expect(third.headers["Content-Type"] == "application/problem+json")
            #expect(try app.request("GET", "/v1/clients/android/tabs/events").status == 404)
        }
    }

    @Test("deleting the client ends its streams with a deleted event")
    func deletedClient() throws {
        try TestApp.with { app in
            let events = try EventReader(port: app.port, path: "/v1/clients/ios-phone/tabs/events")
            defer { events.close() }
            _ = try events.next()
            #expect(try app.request("DELETE", "/v1/clients/ios-phone/config", headers: TestApp.admin).status == 204)
            #expect(try events.next().hasPrefix("event: deleted"))
            #expect(try events.atEnd())
        }
    }
}

/// Reads one server-sent-event stream over its own connection.
final class EventReader: @unchecked Sendable {
    // Safe: each reader is used by one thread at a time in these tests.
    let client: TestClient
    let head: TestResponse
    private var buffer = ""

    init(port: Int, path: String, lastEventID: String? = nil) throws {
        client = try TestClient(port: port)
        var headers = [("Accept", "text/event-stream")]
        if let lastEventID { headers.append(("Last-Event-ID", lastEventID)) }
        head = try client.openStream("GET", path, headers: headers)
    }

    /// The next event block, without its blank-line terminator.
    func next(skippingHeartbeats: Bool = false) throws -> String {
        while true {
            if let range = buffer.range(of: "\n\n") {
                let event = String(buffer[..<range.lowerBound])
                buffer.removeSubrange(..<range.upperBound)
                if skippingHeartbeats, event.hasPrefix(":") { continue }
                return event
            }
            guard let chunk = try client.readBodyChunk() else { throw TestFailure("the event stream ended") }
            buffer += String(decoding: chunk, as: UTF8.self)
        }
    }

    /// Whether an event, or part of one, or the stream's end can be read without waiting.
    var hasDataToRead: Bool {
        !buffer.isEmpty || client.hasDataToRead()
    }

    /// Whether the stream ends with no further data.
    func atEnd() throws -> Bool {
        buffer.isEmpty ? try client.readBodyChunk() == nil : false
    }

    func close() {
        client.close()
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    // Safe: every access to `count` holds `lock`.
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
