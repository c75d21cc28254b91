import Foundation
import MicroHTTPTesting
import TabBarModel
@testable import TabBarAPI
import Testing

@Suite("GET tab bars")
struct TabsEndpointTests {
    @Test("the embedded sample is served on an empty data directory")
    func sampleTabBar() throws {
        try TestApp.with { app in
            let response = try app.request("GET", "/v1/clients/ios-phone/tabs")
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
            let bar = try JSONDecoder().decode(ResolvedTabBar.self, from: response.body)
            #expect(bar.client == "ios-phone")
            #expect(bar.version == 1)
            #expect(bar.locale == "en")
            #expect(bar.tabs.map(\.id) == ["home", "search", "library", "favorites", "profile", "settings", "downloads"])
            #expect(bar.tabs.prefix(4).allSatisfy { $0.placement == .bar })
            #expect(bar.tabs.dropFirst(4).allSatisfy { $0.placement == .more })
            #expect(bar.customization == nil)
            #expect(response.headers["Vary"] == "Accept-Encoding, Accept-Language")
        }
    }

    @Test("Accept-Language and ?locale= pick the titles")
    func locales() throws {
        try TestApp.with { app in
            let french = try app.request("GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Language", "fr-CA, en;q=0.5")])
            let frenchBar = try JSONDecoder().decode(ResolvedTabBar.self, from: french.body)
            #expect(frenchBar.locale == "fr")
            #expect(frenchBar.tabs.first?.title == TabBarConfig.sample.tabs.first?.title.localized?["fr"])

            let german = try app.request("GET", "/v1/clients/ios-phone/tabs?locale=de-CH", headers: [("Accept-Language", "fr")])
            let germanBar = try JSONDecoder().decode(ResolvedTabBar.self, from: german.body)
            #expect(germanBar.locale == "de")
            #expect(german.headers["Vary"] == "Accept-Encoding", "not Accept-Language: the query named the locale")

            let unknown = try app.request("GET", "/v1/clients/ios-phone/tabs", headers: [("Accept-Language", "ja")])
            #expect(try JSONDecoder().decode(ResolvedTabBar.self, from: unknown.body).locale == "en")
        }
    }

    @Test("the encoded default tab bar is reused byte for byte")
    func cachedEncoding() throws {
        try TestApp.with { app in
            let first = try app.request("GET", "/v1/clients/ios-phone/tabs?locale=fr")
            let second = try app.request("GET", "/v1/clients/ios-phone/tabs?locale=fr")
            #expect(first.body == second.body)
        }
    }

    @Test("answered from the request head or the usual way, the default tab bar is the same")
    func headAnswerMatchesTheUsualOne() throws {
        try TestApp.with { app in
            let targets = [
                "/v1/clients/ios-phone/tabs", "/v1/clients/ios-phone/tabs?locale=fr", "/v1/clients/ios-phone/tabs?locale=DE-ch",
                "/v1/clients/ios-phone/tabs?locale=ja&locale=fr", "/v1/clients/ios-phone/tabs?locale",
                "/v1/clients/ios-phone/tabs?locale=not%20a%20tag", "/v1/clients/android/tabs", "/v1/clients/Bad/tabs",
                "/v1/clients/ios-phone/tabs/", "/v1/clients//tabs",
            ]
            let languages: [[(String, String)]] = [[], [("Accept-Language", "fr-CA, en;q=0.5")], [("accept-language", "ja")]]
            for method in ["GET", "HEAD"] {
                for target in targets {
                    for language in languages {
                        try Self.expectHeadAnswerIsTheUsualOne(app, method, target, headers: language)
                    }
                }
            }
        }
    }

    @Test("answered from the request head or the usual way, a user's tab bar is the same")
    func userHeadAnswerMatchesTheUsualOne() throws {
        try TestApp.with { app in
            let saved = try app.request(
                "PUT", "/v1/clients/ios-phone/users/alice/tab-order",
                json: ["order": ["settings", "search", "home"], "hidden": ["settings"]])
            #expect(saved.status == 200)
            let users = ["alice", "nobody", "me", "bad%20user", "a%2Fb", "", "al%69ce"]
            var targets = users.flatMap { user in
                ["", "?locale=fr", "?locale=not%20a%20tag"].map { "/v1/clients/ios-phone/users/\(user)/tabs\($0)" }
            }
            targets += [
                "/v1/clients/android/users/alice/tabs", "/v1/clients/Bad/users/alice/tabs",
                "/v1/clients/ios-phone/userz/alice/tabs", "/v1/clients/ios-phone/users/alice/tabs/",
                "/v1/clients//users/alice/tabs", "/v1/clients/ios-phone/users/alice/x/tabs",
            ]
            let languages: [[(String, String)]] = [[], [("Accept-Language", "fr-CA, en;q=0.5")]]
            for method in ["GET", "HEAD"] {
                for target in targets {
                    for language in languages {
                        try Self.expectHeadAnswerIsTheUsualOne(app, method, target, headers: language)
                    }
                }
            }
            let alice = try app.userTabs("ios-phone", "alice")
            #expect(alice.customization?.hidden == ["settings"])
        }
    }

    /// The request as sent (answered from its head where it can be) and with a one-byte body, which sends it the
    /// usual way: the same status, body and headers; then the same again with `If-None-Match` naming its tag (a 304).
    private static func expectHeadAnswerIsTheUsualOne(
        _ app: TestApp, _ method: String, _ target: String, headers: [(String, String)]
    ) throws {
        // One request id for both: a problem names it as its instance.
        let headers = headers + [("X-Request-Id", "compared")]
        let headAnswer = try app.request(method, target, headers: headers)
        let usual = try app.request(method, target, headers: headers, body: Data("x".utf8))
        let label = "\(method) \(target) \(headers)"
        expectSame(headAnswer, usual, label)
        guard let tag = headAnswer.headers["ETag"] else { return }
        let revalidated = headers + [("If-None-Match", tag)]
        let headNotModified = try app.request(method, target, headers: revalidated)
        #expect(headNotModified.status == 304, "\(label)")
        expectSame(headNotModified, try app.request(method, target, headers: revalidated, body: Data("x".utf8)), label)
    }

    private static func expectSame(_ headAnswer: TestResponse, _ usual: TestResponse, _ label: String) {
        #expect(headAnswer.status == usual.status, "\(label)")
        #expect(headAnswer.body == usual.body, "\(label)")
        for name in ["Content-Type", "ETag", "Cache-Control", "Vary", "Content-Length"] {
            #expect(headAnswer.headers[name] == usual.headers[name], "\(label) \(name)")
        }
    }

    @Test("a malformed locale is 400, an unknown client 404, a bad client id 400")
    func errors() throws {
        try TestApp.with { app in
            let badLocale = try app.request("GET", "/v1/clients/ios-phone/tabs?locale=not%20a%20tag")
            #expect(badLocale.status == 400)
            #expect(badLocale.headers["Content-Type"] == "application/problem+json")
            let localeProblem = try #require(try badLocale.json() as? [String: Any])
            let localeErrors = try #require(localeProblem["errors"] as? [[String: String]])
            #expect(localeErrors.count == 1)
            #expect(localeErrors.first?["parameter"] == "locale", "a parameter's problem names it, not a pointer")
            #expect(localeErrors.first?["pointer"] == nil)

            let unknown = try app.request("GET", "/v1/clients/android/tabs")
            #expect(unknown.status == 404)
            let problem = try #require(try unknown.json() as? [String: Any])
            #expect(problem["status"] as? Int == 404)
            #expect(problem["title"] is String)
            #expect(problem["type"] is String)
            #expect(problem["detail"] is String)

            let badClient = try app.request("GET", "/v1/clients/Bad_Client/tabs")
            #expect(badClient.status == 400)
            let badUser = try app.request("GET", "/v1/clients/ios-phone/users/bad%20user/tabs")
            #expect(badUser.status == 400)
        }
    }

    @Test("a user who never saved gets the default order, reported as such")
    func userWithoutCustomization() throws {
        try TestApp.with { app in
            let bar = try app.userTabs("ios-phone", "nobody")
            #expect(bar.tabs.map(\.id) == TabBarConfig.sample.tabs.map(\.id))
            let summary = try #require(bar.customization)
            #expect(summary.source == "default")
            #expect(summary.revision == 0)
        }
    }
}
