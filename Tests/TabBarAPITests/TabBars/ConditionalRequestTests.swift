import Foundation
import MicroHTTPTesting
import TabBarModel
import Testing

@Suite("conditional requests")
struct ConditionalRequestTests {
    @Test("tab bars carry an ETag and Cache-Control; If-None-Match answers 304 with no body")
    func revalidation() throws {
        try TestApp.with(configure: { $0.cacheMaxAge = 120 }) { app in
            let full = try app.request("GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Language", "fr")])
            let etag = try #require(full.headers["ETag"])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(full.headers["Cache-Control"] == "public, max-age=120")
            #expect(full.headers["Vary"] == "Accept-Encoding, Accept-Language", "it comes compressed too")

            let cached = try app.request(
                "GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Language", "fr"), ("If-None-Match", etag)])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
            #expect(cached.headers["ETag"] == etag)
            #expect(cached.headers["Cache-Control"] == "public, max-age=120")

            let weak = try app.request(
                "GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Language", "fr"), ("If-None-Match", "\"x\", W/\(etag)")])
            #expect(weak.status == 304)

            let otherLocale = try app.request(
                "GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Language", "de"), ("If-None-Match", etag)])
            #expect(otherLocale.status == 200)
            #expect(otherLocale.headers["ETag"] != etag)

            let viaQuery = try app.request("GET", "/v1/clients/ios-phone/tabs?locale=fr")
            #expect(viaQuery.headers["Vary"] == "Accept-Encoding", "not Accept-Language: the query named the locale")
        }
    }

    @Test("the ETag changes exactly when the body changes")
    func etagTracksBody() throws {
        try TestApp.with { app in
            let path = "/v1/clients/ios-phone/users/ann/tabs?locale=en"
            let first = try app.request("GET", path)
            let again = try app.request("GET", path)
            #expect(first.headers["ETag"] == again.headers["ETag"])
            #expect(first.body == again.body)

            _ = try app.saveOrder("ios-phone", "ann", order: ["search", "home"])
            let afterSave = try app.request("GET", path)
            #expect(afterSave.headers["ETag"] != first.headers["ETag"])
            #expect(try app.request("GET", path, headers: [("If-None-Match", first.headers["ETag"] ?? "")]).status == 200)

            let defaultBefore = try app.request("GET", "/v1/clients/ios-phone/tabs?locale=en")
            try app.publish("ios-phone", Fixtures.designExample)
            let defaultAfter = try app.request("GET", "/v1/clients/ios-phone/tabs?locale=en")
            #expect(defaultBefore.headers["ETag"] != defaultAfter.headers["ETag"])
            let userAfterPublish = try app.request("GET", path)
            #expect(userAfterPublish.headers["ETag"] != afterSave.headers["ETag"])
        }
    }

    @Test("config and tab-order GETs revalidate too")
    func configAndTabOrder() throws {
        try TestApp.with { app in
            let config = try app.request("GET", "/v1/clients/ios-phone/config", headers: TestApp.admin)
            let configTag = try #require(config.headers["ETag"])
            #expect(try app.request("GET", "/v1/clients/ios-phone/config", headers: TestApp.admin + [("If-None-Match", configTag)]).status == 304)

            let order = try app.request("GET", "/v1/clients/ios-phone/users/ben/tab-order")
            let orderTag = try #require(order.headers["ETag"])
            #expect(order.headers["Cache-Control"] == "private, no-cache")
            #expect(try app.request("GET", "/v1/clients/ios-phone/users/ben/tab-order", headers: [("If-None-Match", orderTag)]).status == 304)
        }
    }

    @Test("If-Match: a stale tag is 412 and writes nothing; the current tag, * and no header write")
    func ifMatch() throws {
        try TestApp.with { app in
            let path = "/v1/clients/ios-phone/users/cat/tab-order"
            let body = try JSONSerialization.data(withJSONObject: ["order": ["search"]])
            let read = try app.request("GET", path)
            let tag = try #require(read.headers["ETag"])
            let first = try app.request("PUT", path, headers: TestApp.json + [("If-Match", tag)], body: body)
            #expect(first.status == 200)
            let stale = try app.request("PUT", path, headers: TestApp.json + [("If-Match", tag)], body: body)
            #expect(stale.status == 412)
            #expect(stale.headers["Content-Type"] == "application/problem+json")
            #expect((try app.request("GET", path).json() as? [String: Any])?["revision"] as? Int == 1)
            #expect(try app.request("PUT", path, headers: TestApp.json + [("If-Match", "*")], body: body).status == 200)
            #expect(try app.request("PUT", path, headers: TestApp.json, body: body).status == 200)

            let config = try app.request("GET", "/v1/clients/ios-phone/config", headers: TestApp.admin)
            let configTag = try #require(config.headers["ETag"])
            let document = try JSONSerialization.data(withJSONObject: Fixtures.designExample)
            let publish = try app.request(
                "PUT", "/v1/clients/ios-phone/config", headers: TestApp.adminJSON + [("If-Match", configTag)], body: document)
            #expect(publish.status == 201)
            let stalePublish = try app.request(
                "PUT", "/v1/clients/ios-phone/config", headers: TestApp.adminJSON + [("If-Match", configTag)], body: document)
            #expect(stalePublish.status == 412)
            let live = try app.request("GET", "/v1/clients/ios-phone/config", headers: TestApp.admin)
            #expect((try live.json() as? [String: Any])?["version"] as? Int == 2)
        }
    }

    @Test("two writers racing with the same If-Match: exactly one wins")
    func racingWriters() throws {
        try TestApp.with { app in
            let path = "/v1/clients/ios-phone/users/dan/tab-order"
            for round in 0..<10 {
                let tag = try #require(try app.request("GET", path).headers["ETag"])
                let statuses = StatusList()
                DispatchQueue.concurrentPerform(iterations: 8) { index in
                    let order = index % 2 == 0 ? ["search", "home"] : ["profile"]
                    let body = try? JSONSerialization.data(withJSONObject: ["order": order])
                    let status = (try? app.request("PUT", path, headers: TestApp.json + [("If-Match", tag)], body: body))?.status
                    statuses.append(status ?? -1)
                }
                #expect(statuses.values.filter { $0 == 200 }.count == 1, "round \(round): \(statuses.values)")
                #expect(statuses.values.filter { $0 == 412 }.count == 7, "round \(round): \(statuses.values)")
            }
            #expect((try app.request("GET", path).json() as? [String: Any])?["revision"] as? Int == 10)
        }
    }
}

/// Statuses collected from concurrent requests.
final class StatusList: @unchecked Sendable {
    // Safe: every access to `storage` holds `lock`.
    private let lock = NSLock()
    private var storage: [Int] = []

    func append(_ status: Int) {
        lock.lock()
        storage.append(status)
        lock.unlock()
    }

    var values: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
