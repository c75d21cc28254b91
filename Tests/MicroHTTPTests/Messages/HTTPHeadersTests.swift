import MicroHTTP
import Testing

@Suite("HTTPHeaders")
struct HTTPHeadersTests {
    @Test func lookupIsCaseInsensitiveAndKeepsOrder() {
        var headers: HTTPHeaders = ["Content-Type": "application/json", "X-Trace": "a"]
        headers.add(name: "x-trace", value: "b")
        #expect(headers["content-type"] == "application/json")
        #expect(headers["X-TRACE"] == "a")
        #expect(headers.values("X-Trace") == ["a", "b"])
        #expect(headers.map(\.name) == ["Content-Type", "X-Trace", "x-trace"])
        #expect(headers["missing"] == nil)
    }

    @Test func replaceOrAddKeepsOneField() {
        var headers = HTTPHeaders([("Cache-Control", "no-store"), ("ETag", "\"1\""), ("cache-control", "private")])
        headers.replaceOrAdd(name: "Cache-Control", value: "max-age=60")
        #expect(headers.values("cache-control") == ["max-age=60"])
        #expect(headers.map(\.name) == ["Cache-Control", "ETag"])
        headers.replaceOrAdd(name: "Vary", value: "Accept")
        #expect(headers["vary"] == "Accept")
    }

    @Test func removeDropsEveryMatchingField() {
        var headers = HTTPHeaders([("A", "1"), ("b", "2"), ("a", "3")])
        headers.remove(name: "a")
        #expect(headers.map(\.name) == ["b"])
        #expect(headers == HTTPHeaders([("b", "2")]))
        #expect(headers != HTTPHeaders([("b", "3")]))
    }

    @Test func emptyHeaders() {
        let headers = HTTPHeaders()
        #expect(headers.isEmpty)
        #expect(headers == [:])
    }
}
