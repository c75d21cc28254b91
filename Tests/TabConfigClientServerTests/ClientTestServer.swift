import Foundation
import Synchronization
import TabBarAPI
import TabConfigClient
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real service (TabBarAPI's `Application`) on 127.0.0.1 over a temporary data directory, for the client's
/// tests: stopped and started again on the same port and data directory, so a client keeps its base URL.
final class ClientTestServer: Sendable {
    static let adminToken = "client-test-admin-token-0123456789"
    static let hs256Secret = "client-test-hs256-secret-0123456789abcdef"

    let dataDirectory: TemporaryDirectory
    private let configuration: ApplicationConfiguration
    private let application: Mutex<Application?>
    /// The port it listens on, the same after a restart.
    let port: Int

    /// Starts a server; `configure` may change its configuration (user auth, event-stream limits, …).
    init(configure: (inout ApplicationConfiguration) -> Void = { _ in }) throws {
        dataDirectory = try TemporaryDirectory("client")
        var configuration = ApplicationConfiguration()
        configuration.port = 0
        configuration.dataDirectory = dataDirectory.url
        configuration.adminToken = Self.adminToken
        configuration.shutdownGracePeriod = 1
        configuration.accessLog = false
        configuration.seedSample = false
        configure(&configuration)
        let application = try Application(configuration: configuration, logger: .silent)
        try application.start()
        port = application.port
        configuration.port = port
        self.configuration = configuration
        self.application = Mutex(application)
    }

    /// The base URL a client is configured with.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops serving (in-flight requests get the grace period); the data directory stays.
    func stop() {
        let running = application.withLock { application in
            defer { application = nil }
            return application
        }
        running?.shutdown()
    }

    /// Starts again on the same port and data directory.
    func restart() throws {
        stop()
        let restarted = try Application(configuration: configuration, logger: .silent)
        try restarted.start()
        application.withLock { $0 = restarted }
    }

    /// Stops and removes the data directory.
    func close() {
        stop()
        dataDirectory.remove()
    }

    /// A request to the server.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> (status: Int, headers: [String: String], body: Data) {
        guard let url = URL(string: baseURL.absoluteString + path) else { throw ServerError("bad path \(path)") }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw ServerError("not an HTTP response") }
        var names: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { names[name.lowercased()] = value }
        }
        return (http.statusCode, names, data)
    }

    /// Publishes `config` (a JSON object) for `client`; returns the new version.
    @discardableResult
    func publish(_ client: String, _ config: [String: Any]) async throws -> Int {
        let body = try JSONSerialization.data(withJSONObject: config)
        let answer = try await request(
            "PUT", "/v1/clients/\(client)/config",
            headers: ["Authorization": "Bearer \(Self.adminToken)", "Content-Type": "application/json"], body: body)
        guard answer.status == 201, let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any],
            let version = object["version"] as? Int
        else {
            throw ServerError("publish answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return version
    }

    /// A user's tab bar, as an app receives it.
    func userTabBar(_ client: String, user: String) async throws -> TabBar {
        let answer = try await request("GET", "/v1/clients/\(client)/users/\(user)/tabs")
        guard answer.status == 200 else { throw ServerError("user tab bar answered \(answer.status)") }
        return try JSONDecoder().decode(TabBar.self, from: answer.body)
    }

    /// Saves a user's order and hidden tabs with a plain `PUT …/tab-order`.
    func saveOrder(_ client: String, user: String, _ state: TabOrderState) async throws {
        let answer = try await request(
            "PUT", "/v1/clients/\(client)/users/\(user)/tab-order", headers: ["Content-Type": "application/json"],
            body: try JSONEncoder().encode(state))
        guard answer.status == 200 else {
            let text = String(decoding: answer.body, as: UTF8.self)
            throw ServerError("tab-order PUT answered \(answer.status): \(text)")
        }
    }

    /// The user's stored order as `GET …/tab-order` answers it.
    func storedOrder(
        _ client: String, _ user: String, token: String? = nil
    ) async throws -> (order: [String], revision: Int) {
        var headers: [String: String] = [:]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        let answer = try await request("GET", "/v1/clients/\(client)/users/\(user)/tab-order", headers: headers)
        guard answer.status == 200, let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any],
            let order = object["order"] as? [String], let revision = object["revision"] as? Int
        else {
            throw ServerError("tab-order answered \(answer.status)")
        }
        return (order, revision)
    }

    /// Requests the server finished, from `GET /metrics`: those whose labels include all of `labels` (e.g.
    /// `["route": "/v1/clients/{client}/tabs", "status": "304"]`). The scrapes themselves are not counted.
    func requestCount(_ labels: [String: String] = [:]) async throws -> Int {
        let samples = try await metric("http_requests_total").filter { sample in
            sample.labels["route"] != "/metrics" && labels.allSatisfy { sample.labels[$0.key] == $0.value }
        }
        return Int(samples.reduce(0) { $0 + $1.value })
    }

    /// ``requestCount(_:)`` once it reached `expected` (the server counts a request after its answer went out, so
    /// a client may hold the answer a moment before it is counted), or after 20 s: what a test compares with
    /// `expected` to see that no more requests came.
    func settledCount(_ labels: [String: String] = [:], expected: Int) async throws -> Int {
        _ = try await waitUntil { try await requestCount(labels) >= expected }
        return try await requestCount(labels)
    }

    /// The event streams the server holds open.
    func eventSubscribers() async throws -> Int {
        Int(try await metric("tabconfig_event_subscribers").first?.value ?? 0)
    }

    /// The samples of the series `name` in `GET /metrics`.
    func metric(_ name: String) async throws -> [(labels: [String: String], value: Double)] {
        let answer = try await request("GET", "/metrics")
        var samples: [(labels: [String: String], value: Double)] = []
        for line in String(decoding: answer.body, as: UTF8.self).split(separator: "\n") where line.hasPrefix(name) {
            let rest = line.dropFirst(name.count)
            if rest.hasPrefix("{"), let close = rest.lastIndex(of: "}"),
                let value = Double(rest[rest.index(after: close)...].trimmed)
            {
                samples.append((Self.labels(rest[rest.index(after: rest.startIndex)..<close]), value))
            } else if rest.hasPrefix(" "), let value = Double(rest.trimmed) {
                samples.append(([:], value))
            }
        }
        return samples
    }

    /// `name="value",…` as a dictionary.
    private static func labels(_ text: Substring) -> [String: String] {
        var labels: [String: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            labels[String(parts[0])] = String(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
        }
        return labels
    }
}

/// A failed step of a test helper.
struct ServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Substring {
    fileprivate var trimmed: Substring {
        drop(while: \.isWhitespace)
    }
}
