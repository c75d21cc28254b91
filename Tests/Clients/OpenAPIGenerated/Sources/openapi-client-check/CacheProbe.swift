import Foundation
import OpenAPIURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default tab bar served with `max-age` (issue 18 (c)), told by the server's own request counter: whether a
/// default URLSession (`URLSessionTransport()`, `URLSession.shared`) contacts the server for a repeated GET and for
/// the caller's own `If-None-Match`, and that the session openapi.yaml recommends does, getting a real 304. What the
/// default session did is reported, not judged: it is the platform's behaviour.
struct CacheProbe {
    let serverURL: URL
    let counter: RequestCounter

    private static let route = "/v1/clients/{client}/tabs"
    private var path: Operations.GetDefaultTabs.Input.Path { .init(client: OperationRun.clientID) }

    func run(_ checklist: Checklist) async {
        let escaped = Client(
            serverURL: serverURL, transport: URLSessionTransport(configuration: .init(session: .revalidating())))
        await checklist.call("getDefaultTabs", "If-None-Match as swift-openapi-runtime sends it, no middleware") {
            let ok = try await escaped.getDefaultTabs(path: path).ok
            let again = try await escaped.getDefaultTabs(path: path, headers: .init(ifNoneMatch: ok.headers.eTag))
            if case .ok = again { return "percent-encoded, it names no representation: 200, not 304" }
            return "decoded as \(again)"
        }
        let shared = Client(
            serverURL: serverURL, transport: URLSessionTransport(), middlewares: [UnescapedEntityTags()])
        await checklist.call("getDefaultTabs", "twice then If-None-Match, default URLSession") {
            let configuration = URLSession.shared.configuration
            let cache = configuration.urlCache.map { "a URLCache of \($0.memoryCapacity) B in memory" } ?? "no URLCache"
            return "URLSession.shared has \(cache), requestCachePolicy \(configuration.requestCachePolicy.rawValue); "
                + "\(try await observe(shared, locale: "en"))"
        }
        let revalidating = Client(
            serverURL: serverURL, transport: URLSessionTransport(configuration: .init(session: .revalidating())),
            middlewares: [UnescapedEntityTags()])
        await checklist.call("getDefaultTabs", "twice then If-None-Match, urlCache nil, reloadIgnoringLocalCacheData") {
            let seen = try await observe(revalidating, locale: "de")
            try CheckFailure.expect(seen.reachedServer == 3 && seen.notModified, "\(seen)")
            return "\(seen)"
        }
    }

    /// What the server saw of two GETs and a GET with the first one's ETag through `client`.
    private func observe(_ client: Client, locale: String) async throws -> Observation {
        let query = Operations.GetDefaultTabs.Input.Query(locale: locale)
        let before = (ok: try await counter.requests(Self.route, status: 200),
                      notModified: try await counter.requests(Self.route, status: 304))
        let first = try await client.getDefaultTabs(path: path, query: query).ok
        let cacheControl = first.headers.cacheControl ?? "none"
        try CheckFailure.expect(cacheControl.contains("max-age="), "Cache-Control \(cacheControl): start the server "
            + "with TABCONFIG_CACHE_MAX_AGE=60")
        let afterFirst = try await counter.requests(Self.route, status: 200, changedFrom: before.ok)
        _ = try await client.getDefaultTabs(path: path, query: query).ok
        let afterSecond = try await counter.requests(Self.route, status: 200, changedFrom: afterFirst)
        let conditional = try await client.getDefaultTabs(path: path, query: query,
            headers: .init(ifNoneMatch: first.headers.eTag))
        let okAfter = try await counter.requests(Self.route, status: 200, changedFrom: afterSecond)
        let notModifiedAfter = try await counter.requests(Self.route, status: 304, changedFrom: before.notModified)
        let answered: String
        switch conditional {
        case .ok: answered = "200"
        case .notModified: answered = "304"
        default: throw CheckFailure("If-None-Match answered \(conditional)")
        }
        return Observation(
            cacheControl: cacheControl, firstReached: afterFirst > before.ok, secondReached: afterSecond > afterFirst,
            conditionalAnswer: answered,
            conditionalReached: okAfter > afterSecond || notModifiedAfter > before.notModified,
            notModified: notModifiedAfter > before.notModified && answered == "304")
    }

    /// What one session did, as the server counted it.
    private struct Observation: CustomStringConvertible {
        var cacheControl: String
        var firstReached: Bool
        var secondReached: Bool
        var conditionalAnswer: String
        var conditionalReached: Bool
        var notModified: Bool

        var reachedServer: Int { [firstReached, secondReached, conditionalReached].filter { $0 }.count }

        var description: String {
            func reached(_ flag: Bool) -> String { flag ? "reached the server" : "answered without the server" }
            return "Cache-Control \(cacheControl); 1st GET \(reached(firstReached)), "
                + "2nd GET \(reached(secondReached)), "
                + "If-None-Match \(reached(conditionalReached)) and decoded as \(conditionalAnswer)"
                + (notModified ? " (the server's 304)" : "")
        }
    }
}
