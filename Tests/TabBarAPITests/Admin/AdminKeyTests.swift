import Foundation
import MicroHTTPTesting
import Synchronization
import TabBarAPI
import TabBarModel
import Testing
import TestSupport

/// Admin keys with scopes: the keys file, the scope every admin endpoint needs, and rotation by SIGHUP.
@Suite("admin keys")
struct AdminKeyTests {
    private static let tokens: [AdminScope: String] = [
        .read: "tck_read-token-0123456789", .publish: "tck_publish-token-0123456789",
        .admin: "tck_admin-token-0123456789",
    ]

    private static func keysFile(_ keys: [AdminKey]) throws -> URL {
        let url = try TemporaryDirectory().url.appendingPathComponent("keys.json")
        try AdminKeysFile(keys: keys).encoded().write(to: url)
        return url
    }

    private static func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer \(token)")] }

    /// One admin request, the scope it needs and the status it answers when allowed. `prepare` runs first with the
    /// admin token, so that an allowed request succeeds (a client to delete, say).
    private struct Endpoint: CustomStringConvertible {
        var method: String
        var target: String
        var scope: AdminScope
        var status: Int
        var body = Body.none
        var description: String { "\(method) \(target)" }
    }

    /// A request body of the matrix.
    private enum Body {
        case none, config, rollback, plist, manifest

        var contentType: String? {
            switch self {
            case .none: nil
            case .config, .rollback, .manifest: "application/json"
            case .plist: "application/x-plist"
            }
        }

        func data() throws -> Data? {
            switch self {
            case .none: nil
            case .config: TabBarConfig.sample.encoded()
            case .rollback: Data(#"{"version": 1}"#.utf8)
            case .manifest: Data(#"{"viewControllers": ["HomeViewController"]}"#.utf8)
            case .plist:
                try Data(contentsOf: PlistImportTests.fixtures.appendingPathComponent("ApplicationHierarchy.plist"))
            }
        }
    }

    /// Every admin endpoint; `{c}` is a client published just before each request.
    private static let endpoints: [Endpoint] = [
        Endpoint(method: "GET", target: "/v1/clients", scope: .read, status: 200),
        Endpoint(method: "GET", target: "/v1/clients/{c}/config", scope: .read, status: 200),
        Endpoint(method: "GET", target: "/v1/clients/{c}/config/versions", scope: .read, status: 200),
        Endpoint(method: "GET", target: "/v1/clients/{c}/config/versions/1", scope: .read, status: 200),
        Endpoint(method: "GET", target: "/v1/clients/{c}/tabs/explain?platform=ios", scope: .read, status: 200),
        Endpoint(method: "PUT", target: "/v1/clients/{c}/config?dryRun=true", scope: .read, status: 200, body: .config),
        Endpoint(method: "PUT", target: "/v1/clients/{c}/config", scope: .publish, status: 201, body: .config),
        Endpoint(
            method: "POST", target: "/v1/clients/{c}/config/rollback", scope: .publish, status: 201,
            body: .rollback),
        Endpoint(
            method: "POST", target: "/v1/import/plist?client={c}", scope: .publish, status: 201, body: .plist),
        Endpoint(method: "DELETE", target: "/v1/clients/{c}/config", scope: .admin, status: 204),
        Endpoint(method: "GET", target: "/v1/clients/{c}/builds", scope: .read, status: 200),
        Endpoint(method: "GET", target: "/v1/clients/{c}/builds/ios/5.2.0", scope: .read, status: 404),
        Endpoint(
            method: "PUT", target: "/v1/clients/{c}/builds/ios/5.2.0", scope: .publish, status: 201, body: .manifest),
        Endpoint(method: "DELETE", target: "/v1/clients/{c}/builds/ios/5.2.0", scope: .publish, status: 404),
    ]

    @Test("every admin endpoint × every scope: allowed from its scope up, 403 below, 401 without a known key")
    func scopeMatrix() throws {
        let keys = AdminScope.allCases.map { AdminKey(name: "key-\($0.rawValue)", scope: $0, token: Self.tokens[$0]!) }
        let file = try Self.keysFile(keys)
        try TestApp.with(configure: { $0.adminKeysFile = file }) { app in
            var counter = 0
            for endpoint in Self.endpoints {
                let callers: [(String, [(String, String)], Int)] =
                    AdminScope.allCases.map { scope in
                        let expected = scope >= endpoint.scope ? endpoint.status : 403
                        return ("\(scope.rawValue) key", Self.bearer(Self.tokens[scope]!), expected)
                    } + [
                        ("admin token", TestApp.admin, endpoint.status), ("no key", [], 401),
                        ("unknown key", Self.bearer("tck_unknown"), 401),
                        ("not bearer", [("Authorization", "Basic \(Self.tokens[.admin]!)")], 401),
                    ]
                for (caller, headers, expected) in callers {
                    counter += 1
                    let client = "matrix-\(counter)"
                    try app.publish(client, try JSONSerialization.jsonObject(with: TabBarConfig.sample.encoded()))
                    var requestHeaders = headers
                    if let type = endpoint.body.contentType { requestHeaders.append(("Content-Type", type)) }
                    let response = try app.request(
                        endpoint.method, endpoint.target.replacingOccurrences(of: "{c}", with: client),
                        headers: requestHeaders, body: try endpoint.body.data())
                    #expect(response.status == expected, "\(endpoint) with the \(caller): \(response.text)")
                    if expected == 403 {
                        #expect(try response.problemDetail().contains("needs \(endpoint.scope.rawValue)"))
                    }
                    if expected == 401 {
                        #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
                    }
                }
            }
            #expect(counter == Self.endpoints.count * 7)
        }
    }

    @Test("the keys file: hashes only, every mistake named with its position")
    func keysFileChecks() throws {
        let digest = String(repeating: "ab", count: 32)
        func key(_ name: String, _ scope: String, _ sha256: String) -> String {
            #"{"name": "\#(name)", "scope": "\#(scope)", "sha256": "\#(sha256)"}"#
        }
        let cases: [(String, String)] = [
            (#"{"keys": [{"name": "ci", "scope": "publish", "token": "secret"}]}"#, "keys[0] holds a token"),
            (
                #"{"keys": [{"name": "ci", "scope": "publish", "sha256": "\#(digest)", "note": 1}]}"#,
                "keys[0] has the unknown member 'note'"
            ),
            (#"{"keys": [\#(key("c i", "publish", digest))]}"#, "keys[0].name"),
            (#"{"keys": [\#(key("ci", "owner", digest))]}"#, "keys[0].scope"),
            (#"{"keys": [\#(key("ci", "read", "+" + digest.dropFirst()))]}"#, "keys[0].sha256"),
            (#"{"keys": [\#(key("ci", "read", digest)), 3]}"#, "keys[1] is not an object"),
            (
                #"{"keys": [\#(key("ci", "read", digest)), \#(key("ci", "admin", digest.replacing("a", with: "0")))]}"#,
                "more than one key is named 'ci'"
            ),
            (
                #"{"keys": [\#(key("a", "read", digest)), \#(key("b", "admin", digest.uppercased()))]}"#,
                "keys 'a' and 'b' have the same token"
            ),
            (#"{"keys": {}}"#, "expected {\"keys\""),
            (#"[]"#, "expected {\"keys\""),
        ]
        for (text, message) in cases {
            #expect {
                try AdminKeysFile(data: Data(text.utf8), path: "keys.json")
            } throws: { error in
                "\(error)".contains("admin keys file keys.json: \(message)")
            }
        }
        let key = AdminKey(name: "ci", scope: .publish, token: "tck_x")
        let written = AdminKeysFile(keys: [key, AdminKey(name: "dash", scope: .read, token: "tck_y")]).encoded()
        #expect(try AdminKeysFile(data: written, path: "keys.json").keys.first == key)
        #expect(!String(decoding: written, as: UTF8.self).contains("tck_x"))
        // The SHA-256 test vector of FIPS 180-2 ("abc").
        let abc = AdminKey(name: "abc", scope: .read, token: "abc").digestHex
        #expect(abc == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("a keys file naming the admin token's key, or holding its token, is refused at start")
    func tokenKeyCollisions() throws {
        for key in [
            AdminKey(name: "admin-token", scope: .read, token: "tck_other"),
            AdminKey(name: "copy", scope: .read, token: TestApp.adminToken),
        ] {
            let file = try Self.keysFile([key])
            #expect {
                try TestApp.with(configure: { $0.adminKeysFile = file }) { _ in }
            } throws: { error in
                "\(error)".contains("admin token")
            }
        }
    }

    @Test("tabconfig keys add, list and remove keep the file hashed; a duplicate or unknown name exits 1")
    func keysCommand() throws {
        let file = try TemporaryDirectory().url.appendingPathComponent("keys.json").path
        let (added, output) = try ServerProcess.run(
            ["keys", "add", "--file", file, "--name", "ci", "--scope", "publish"])
        #expect(added == 0, "\(output)")
        let token = try #require(output.split(separator: "\n").first { $0.hasPrefix("tck_") }.map(String.init))
        #expect(token.count == 68)
        let stored = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!stored.contains(token))
        #expect(stored.contains(AdminKey(name: "ci", scope: .publish, token: token).digestHex))
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try ServerProcess.run(["keys", "add", "--file", file, "--name", "ci", "--scope", "read"]).0 == 1)
        #expect(try ServerProcess.run(["keys", "add", "--file", file, "--name", "x", "--scope", "owner"]).0 == 64)
        #expect(try ServerProcess.run(["keys", "add", "--file", file, "--name", "dash", "--scope", "read"]).0 == 0)
        let (listed, list) = try ServerProcess.run(["keys", "list", "--file", file])
        #expect(listed == 0 && list == "ci\tpublish\ndash\tread\n")
        #expect(try ServerProcess.run(["keys", "remove", "--file", file, "--name", "ci"]).0 == 0)
        #expect(try ServerProcess.run(["keys", "remove", "--file", file, "--name", "ci"]).0 == 1)
        #expect(try ServerProcess.run(["keys", "list", "--file", file]).1 == "dash\tread\n")
    }

    @Test("a key rotated by SIGHUP while a load runs: no request fails, the old key is refused after")
    func rotationUnderLoad() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("keys.json")
        let old = AdminKey.generateToken()
        let new = AdminKey.generateToken()
        try AdminKeysFile(keys: [AdminKey(name: "ci-old", scope: .read, token: old)]).encoded().write(to: file)
        let server = try ServerProcess(
            dataDirectory: directory, arguments: ["--admin-keys", file.path, "--no-access-log"])
        defer { if server.process.isRunning { _ = server.stop(signal: SIGKILL) } }
        let port = server.port
        let current = Mutex(old)
        let stop = Atomic(false)
        let tally = Mutex((ok: 0, failed: [String]()))
        let workers = (0..<4).map { _ in
            Background {
                while !stop.load(ordering: .relaxed) {
                    let token = current.withLock { $0 }
                    do {
                        let response = try httpRequest(port: port, "GET", "/v1/clients", headers: Self.bearer(token))
                        tally.withLock {
                            if response.status == 200 { $0.ok += 1 } else { $0.failed.append("\(response.status)") }
                        }
                    } catch {
                        tally.withLock { $0.failed.append("\(error)") }
                    }
                }
            }
        }
        func status(_ token: String) throws -> Int {
            try httpRequest(port: port, "GET", "/v1/clients", headers: Self.bearer(token)).status
        }
        func served(atLeast count: Int) -> Bool {
            let start = tally.withLock { $0.ok }
            return eventually(within: 30) { tally.withLock { $0.ok } >= start + count }
        }
        #expect(served(atLeast: 100))
        try AdminKeysFile(
            keys: [
                AdminKey(name: "ci-old", scope: .read, token: old), AdminKey(name: "ci-new", scope: .read, token: new),
            ]
        ).encoded().write(to: file)
        kill(server.process.processIdentifier, SIGHUP)
        #expect(try eventually(within: 30) { try status(new) == 200 })
        #expect(served(atLeast: 100))
        current.withLock { $0 = new }
        #expect(served(atLeast: 100))
        try AdminKeysFile(keys: [AdminKey(name: "ci-new", scope: .read, token: new)]).encoded().write(to: file)
        kill(server.process.processIdentifier, SIGHUP)
        #expect(try eventually(within: 30) { try status(old) == 401 })
        #expect(served(atLeast: 100))
        try Data("{broken".utf8).write(to: file)
        kill(server.process.processIdentifier, SIGHUP)
        #expect(eventually(within: 30) { server.log.contains("cannot reload the admin keys file") })
        #expect(served(atLeast: 100))
        stop.store(true, ordering: .relaxed)
        for worker in workers { #expect(worker.join()) }
        let result = tally.withLock { $0 }
        #expect(result.failed.isEmpty, "failed requests: \(result.failed.prefix(5))")
        #expect(result.ok >= 500)
        #expect(try status(old) == 401)
        #expect(try status(new) == 200)
        #expect(server.stop() == 0)
        #expect(server.log.contains("reloaded the admin keys file"))
    }
}
