import Foundation
import MicroHTTPTesting
import TabBarAPI
import TabBarModel
import TestSupport

/// Starts the real application on 127.0.0.1 port 0 over a temporary data directory.
struct TestApp: Sendable {
    static let adminToken = "test-admin-token-0123456789"
    static let admin = [("Authorization", "Bearer \(adminToken)")]
    static let json = [("Content-Type", "application/json")]
    static let adminJSON = admin + json

    let application: Application
    let dataDirectory: URL

    var port: Int { application.port }

    /// Runs `body` against a started application, then shuts it down. The directory is removed unless given.
    static func with<T>(
        dataDirectory: URL? = nil, configure: (inout ApplicationConfiguration) -> Void = { _ in },
        _ body: (TestApp) throws -> T
    ) throws -> T {
        let directory = try dataDirectory ?? TemporaryDirectory().url
        defer { if dataDirectory == nil { try? FileManager.default.removeItem(at: directory) } }
        let app = try start(dataDirectory: directory, configure: configure)
        defer { app.application.shutdown() }
        return try body(app)
    }

    /// Starts an application that the caller must shut down.
    static func start(
        dataDirectory: URL, configure: (inout ApplicationConfiguration) -> Void = { _ in }
    ) throws -> TestApp {
        var configuration = ApplicationConfiguration()
        configuration.port = 0
        configuration.dataDirectory = dataDirectory
        configuration.adminToken = adminToken
        configuration.shutdownGracePeriod = 2
        configure(&configuration)
        let application = try Application(configuration: configuration, logger: .silent)
        try application.start()
        return TestApp(application: application, dataDirectory: dataDirectory)
    }

    func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: Data? = nil
    ) throws -> TestResponse {
        try httpRequest(port: port, method, target, headers: headers, body: body)
    }

    func request(_ method: String, _ target: String, headers: [(String, String)] = [], json: Any) throws -> TestResponse {
        let body = try JSONSerialization.data(withJSONObject: json)
        return try request(method, target, headers: headers + TestApp.json, body: body)
    }

    /// Publishes `config` for `client` and returns the new version.
    @discardableResult
    func publish(_ client: String, _ config: Any) throws -> Int {
        let response = try request("PUT", "/v1/clients/\(client)/config", headers: TestApp.admin, json: config)
        guard response.status == 201, let object = try response.json() as? [String: Any],
            let version = object["version"] as? Int
        else {
            throw TestFailure("publish failed: \(response.status) \(response.text)")
        }
        return version
    }

    /// Saves a user's tab order and returns the response.
    func saveOrder(_ client: String, _ user: String, order: [String], hidden: [String] = []) throws -> TestResponse {
        try request(
            "PUT", "/v1/clients/\(client)/users/\(user)/tab-order", json: ["order": order, "hidden": hidden])
    }

    /// The user's resolved tab bar.
    func userTabs(_ client: String, _ user: String, query: String = "") throws -> ResolvedTabBar {
        let response = try request("GET", "/v1/clients/\(client)/users/\(user)/tabs\(query)")
        guard response.status == 200 else { throw TestFailure("user tabs: \(response.status) \(response.text)") }
        return try JSONDecoder().decode(ResolvedTabBar.self, from: response.body)
    }
}

/// A failed expectation inside a helper.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Config documents for tests.
enum Fixtures {
    /// A top-level tab with a view controller destination.
    static func tab(
        _ id: String, locked: Bool = false, hideable: Bool = false, deprecated: String? = nil,
        replaces: String? = nil, localized: [String: String]? = nil
    ) -> [String: Any] {
        var title: [String: Any] = ["default": id.capitalized]
        if let localized { title["localized"] = localized }
        var tab: [String: Any] = [
            "id": id, "title": title, "icon": ["image": "\(id).png"],
            "destination": ["type": "viewController", "name": "\(id.capitalized)ViewController"],
        ]
        if locked { tab["locked"] = true }
        if hideable { tab["hideable"] = true }
        if let deprecated { tab["deprecated"] = deprecated }
        if let replaces { tab["replaces"] = replaces }
        return tab
    }

    /// A config with the given tabs.
    static func config(_ tabs: [[String: Any]], maxVisibleTabs: Int = 5, customizable: Bool = true) -> [String: Any] {
        ["tabs": tabs, "maxVisibleTabs": maxVisibleTabs, "userCustomizable": customizable, "defaultLocale": "en"]
    }

    /// The six tabs of the merge example (docs/design/model.md, "The merge") the merge tests share.
    static var designExample: [String: Any] {
        config([
            tab("home", locked: true), tab("search"), tab("library"), tab("favorites"), tab("profile"),
            tab("settings"),
        ])
    }
}
