import Foundation
import MicroHTTPTesting
import TestSupport
import Testing

@Suite("GET /metrics")
struct MetricsEndpointTests {
    /// The value of the sample line starting with `series` (name and labels) in `text`.
    private static func value(_ series: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
            .flatMap { Double($0.dropFirst(series.count + 1)) }
    }

    @Test("requests are counted by method, route pattern and status; caches and auth failures too; no id is a label")
    func countsByRoute() throws {
        try TestApp.with { app in
            for _ in 0..<3 {
                #expect(try app.request("GET", "/v1/clients/ios-phone/tabs").status == 200)
            }
            #expect(try app.request("GET", "/v1/clients/ios-phone/tabs", headers: [("If-None-Match", "\"t1-en\"")])
                .status == 304)
            #expect(try app.request("GET", "/v1/clients/ios-phone/users/alice-77/tabs").status == 200)
            #expect(try app.request("GET", "/v1/clients/ios-phone/config").status == 401)
            #expect(try app.request("GET", "/no/such/path").status == 404)
            #expect(try app.request("BREW", "/v1/clients/ios-phone/tabs").status == 405)
            // A request is counted when libmicrohttpd reports it complete, which may come after the client has
            // read the answer (and a series may show at 0 before its first increment): scrape until every request
            // made shows.
            let brewed = #"http_requests_total{method="other",route="/v1/clients/{client}/tabs",status="405"}"#
            let tabs = #"http_requests_total{method="GET",route="/v1/clients/{client}/tabs",status="#
            var scrape = try app.request("GET", "/metrics")
            let deadline = Date().addingTimeInterval(10)
            let unmatched = #"http_requests_total{method="GET",route="unmatched",status="404"}"#
            while Self.value(brewed, in: scrape.text) != 1 || Self.value(tabs + #""200"}"#, in: scrape.text) != 3
                || Self.value(tabs + #""304"}"#, in: scrape.text) != 1 || Self.value(unmatched, in: scrape.text) != 1,
                Date() < deadline
            {
                Thread.sleep(forTimeInterval: 0.02)
                scrape = try app.request("GET", "/metrics")
            }
            #expect(scrape.status == 200)
            #expect(scrape.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
            let text = scrape.text
            #expect(Self.value(tabs + #""200"}"#, in: text) == 3)
            #expect(Self.value(tabs + #""304"}"#, in: text) == 1)
            #expect(Self.value(unmatched, in: text) == 1)
            #expect(Self.value(brewed, in: text) == 1)
            #expect(Self.value(#"tabconfig_auth_failures_total{who="admin",reason="missing token"}"#, in: text) == 1)
            #expect(Self.value(#"tabconfig_config_live_version{client="ios-phone"}"#, in: text) == 1)
            #expect(Self.value(#"tabconfig_cache_lookups_total{cache="encoded_answers",result="hit"}"#, in: text) ?? 0 > 0)
            #expect(!text.contains("alice-77") && !text.contains("BREW") && !text.contains("/no/such"))
        }
    }

    @Test("with metrics off, /metrics is not served")
    func off() throws {
        let status = try TestApp.with(configure: { $0.metrics = false }) { app in
            try app.request("GET", "/metrics").status
        }
        #expect(status == 404)
    }
}
