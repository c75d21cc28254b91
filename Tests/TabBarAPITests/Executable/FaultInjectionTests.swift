import Foundation
import MicroHTTPTesting
import Synchronization
import Testing
import TestSupport

/// The real `tabconfig` process with file-system calls failing through the LD_PRELOAD shim of
/// `Tests/Support/faultinject.c`: the store fails closed, keeps every acknowledged write and nothing it refused,
/// answers writes with 503 problem+json, and keeps serving reads.
@Suite("I/O faults injected into the real server")
struct FaultInjectionTests {
    static let token = "fault-injection-admin-token-0123"
    static let admin = [("Authorization", "Bearer \(token)")]
    static let client = "app"
    static let tabs = ["home", "search", "library", "favorites", "profile", "settings"]
    static let writers = 6
    static let writesPerWriter = 8
    static let users = 4
    /// The journal sync or write that fails: the first three batches succeed, so some writes are acknowledged.
    static let failingCall = 4

    /// A failure of the customization journal's write or fsync.
    struct JournalFault: Sendable, CustomTestStringConvertible {
        var operation: FaultInjector.Operation
        var errno: String
        var mode: FaultInjector.Mode

        var testDescription: String { "\(operation.rawValue) fails with \(errno), \(mode.rawValue)" }
    }

    /// How startup is kept from writing the data directory.
    enum StartupFault: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The data directory exists; every open for writing under it fails with EROFS.
        case readOnlyFileSystem
        /// The data directory is missing and creating it fails with EACCES.
        case permissionDenied
        /// The data directory's parent is a regular file (no shim).
        case parentIsAFile

        var testDescription: String { rawValue }
    }

    /// One tab-order write and what the server answered (`response` is nil when it did not answer at all).
    struct Write: Sendable {
        var user: String
        var order: [String]
        var response: TestResponse?
        var error: String?

        var status: Int { response?.status ?? -1 }
        var saved: Stored? { response.flatMap { try? FaultInjectionTests.decodeStored($0) } }
    }

    /// A user's tab order as `GET …/tab-order` (or a successful `PUT`) reports it.
    struct Stored: Equatable, Sendable, CustomStringConvertible {
        var order: [String]
        var revision: Int

        static let unsaved = Stored(order: [], revision: 0)
        var description: String { "r\(revision) \(order)" }
    }

    /// A temporary directory holding the compiled shim and the data directory, with symbolic links resolved so that
    /// paths match what `/proc/self/fd` reports to the shim.
    struct Workspace {
        let root: URL
        let data: URL
        let injector: FaultInjector

        init() throws {
            let root = try TemporaryDirectory().url.resolvingSymlinksInPath()
            do {
                injector = try FaultInjector.compile(into: root)
            } catch {
                try? FileManager.default.removeItem(at: root)
                throw error
            }
            self.root = root
            data = root.appendingPathComponent("data")
        }

        /// Deletes the workspace with everything in it.
        func remove() {
            try? FileManager.default.removeItem(at: root)
        }
    }

    /// Collects one value per thread.
    final class Slots<Value: Sendable>: Sendable {
        private let values: Mutex<[Value?]>

        init(_ count: Int) {
            values = Mutex(Array(repeating: nil, count: count))
        }

        func set(_ index: Int, _ value: Value) {
            values.withLock { $0[index] = value }
        }

        var all: [Value] {
            values.withLock { $0.compactMap { $0 } }
        }
    }

    @Test(
        "a failing journal write or fsync under concurrent writers keeps exactly the acknowledged writes",
        arguments: [
            JournalFault(operation: .fsync, errno: "EIO", mode: .sticky),
            JournalFault(operation: .fsync, errno: "EIO", mode: .once),
            JournalFault(operation: .write, errno: "ENOSPC", mode: .sticky),
        ])
    func journalFault(_ fault: JournalFault) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try Self.prepare(workspace.data)
        let journal = workspace.data.appendingPathComponent("customizations.journal").path
        let faulty = try Self.serve(
            workspace.data,
            fault: workspace.injector.environment(
                failing: fault.operation, nth: Self.failingCall, errno: fault.errno, mode: fault.mode,
                pathPrefix: journal))
        defer { Self.terminate(faulty) }
        #expect(try httpRequest(port: faulty.port, "GET", "/readyz").status == 200)

        let port = faulty.port
        let perWriter = Self.onThreads(Self.writers) { writer in
            (0..<Self.writesPerWriter).map { step in
                Self.send(
                    port: port, user: "user-\((writer + step) % Self.users)",
                    order: Self.permutation(writer * Self.writesPerWriter + step))
            }
        }
        let writes = perWriter.flatMap { $0 }
        let acknowledged = writes.filter { $0.status == 200 }
        let refused = writes.filter { $0.status != 200 }

        #expect(Self.logEventually(faulty, contains: "faultinject: "), "the fault never fired; log: \(faulty.log)")
        #expect(acknowledged.count >= Self.failingCall - 1)
        #expect(!refused.isEmpty)
        for write in refused {
            Self.expectUnavailable(write.response, write.error)
        }
        for sequence in perWriter {
            let statuses = sequence.map(\.status)
            let firstRefusal = statuses.firstIndex { $0 != 200 } ?? statuses.count
            #expect(
                statuses[firstRefusal...].allSatisfy { $0 == 503 }, "a write succeeded after a refusal: \(statuses)")
        }
        for write in acknowledged {
            #expect(write.saved?.order == write.order)
        }
        let expected = Self.latestAcknowledged(acknowledged)

        let probes = try Self.expectFailedButReading(port: faulty.port, expected: expected)
        Self.expectNoPaths(refused.compactMap(\.response) + probes, data: workspace.data)
        #expect(try Self.stop(faulty) == 0)

        let plain = try Self.serve(workspace.data)
        defer { Self.terminate(plain) }
        var stored: [String: Stored] = [:]
        for user in expected.keys.sorted() {
            stored[user] = try Self.stored(port: plain.port, user: user)
            #expect(stored[user] == expected[user], "after the restart \(user) holds \(stored[user]!)")
        }
        let present = writes.filter { stored[$0.user]?.order == $0.order }
        let refusedButPresent = refused.filter { stored[$0.user]?.order == $0.order }
            .map { "\($0.user) \($0.order)" }
        #expect(refusedButPresent == [], "refused writes came back after the restart")
        #expect(try httpRequest(port: plain.port, "GET", "/readyz").status == 200)
        #expect(try Self.save(port: plain.port, user: "after-restart", order: Self.permutation(719)).status == 200)
        #expect(try Self.stop(plain) == 0)
        print(
            "fault injection [\(fault.testDescription)]: writes attempted \(writes.count), acknowledged "
                + "\(acknowledged.count), refused \(refused.count); present after restart \(present.count) "
                + "(acknowledged \(present.count - refusedButPresent.count), refused \(refusedButPresent.count)); "
                + "users holding an order \(stored.values.filter { $0 != .unsaved }.count) of \(Self.users)")
    }

    @Test("a rename failing while a config is published answers 503 and keeps the old live version")
    func publishRenameFault() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try Self.prepare(workspace.data)
        let clients = workspace.data.appendingPathComponent("clients").path
        let faulty = try Self.serve(
            workspace.data, fault: workspace.injector.environment(failing: .rename, errno: "EIO", pathPrefix: clients))
        defer { Self.terminate(faulty) }
        let before = try Self.save(port: faulty.port, user: "before", order: Self.permutation(1))
        #expect(before.status == 200)

        let smaller = Fixtures.config(Self.tabs.dropLast().map { Fixtures.tab($0) })
        let publish = try Self.publish(port: faulty.port, smaller)
        Self.expectUnavailable(publish, nil)
        #expect(Self.logEventually(faulty, contains: "faultinject: rename"), "the fault never fired; log: \(faulty.log)")
        #expect(try Self.liveVersion(port: faulty.port) == 1)
        let after = try Self.save(port: faulty.port, user: "after", order: Self.permutation(2))
        Self.expectUnavailable(after, nil)
        let expected = ["before": Stored(order: Self.permutation(1), revision: 1), "after": Stored.unsaved]
        let probes = try Self.expectFailedButReading(port: faulty.port, expected: expected)
        Self.expectNoPaths([publish, after] + probes, data: workspace.data)
        #expect(try Self.stop(faulty) == 0)
        let versions = workspace.data.appendingPathComponent("clients/\(Self.client)/versions")
        #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path).count == 1)

        let plain = try Self.serve(workspace.data)
        defer { Self.terminate(plain) }
        #expect(try Self.liveVersion(port: plain.port) == 1)
        let history = try httpRequest(
            port: plain.port, "GET", "/v1/clients/\(Self.client)/config/versions", headers: Self.admin)
        let listed = (try history.json() as? [String: Any])?["versions"] as? [[String: Any]]
        #expect(listed?.compactMap { $0["version"] as? Int } == [1])
        #expect(try Self.stored(port: plain.port, user: "before") == expected["before"])
        #expect(try Self.stored(port: plain.port, user: "after") == .unsaved)
        #expect(try httpRequest(port: plain.port, "GET", "/readyz").status == 200)
        #expect(try Self.publish(port: plain.port, Fixtures.config(Self.tabs.map { Fixtures.tab($0) })).status == 201)
        #expect(try Self.stop(plain) == 0)
    }

    @Test(
        "a data directory that cannot be written stops startup with a message naming it",
        arguments: StartupFault.allCases)
    func unwritableDataDirectory(_ fault: StartupFault) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var data = workspace.data
        var environment: [String: String] = [:]
        switch fault {
        case .readOnlyFileSystem:
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            environment = workspace.injector.environment(failing: .open, errno: "EROFS", pathPrefix: data.path)
        case .permissionDenied:
            environment = workspace.injector.environment(failing: .mkdir, errno: "EACCES", pathPrefix: data.path)
        case .parentIsAFile:
            let file = workspace.root.appendingPathComponent("regular-file")
            try Data("x".utf8).write(to: file)
            data = file.appendingPathComponent("data")
        }
        let (status, log) = try Self.runToExit(dataDirectory: data, environment: environment)
        #expect(status != 0)
        #expect(log.contains("cannot start"), "log: \(log)")
        #expect(log.contains(data.path), "the message does not name \(data.path); log: \(log)")
        if fault != .parentIsAFile {
            #expect(log.contains("faultinject: "), "the fault never fired; log: \(log)")
        }
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("customizations.journal").path))
    }
}

extension FaultInjectionTests {
    // MARK: Server processes

    /// Starts `tabconfig serve` on `data` with the admin token, no sample, and the shim's variables in `fault`.
    static func serve(_ data: URL, fault: [String: String] = [:]) throws -> ServerProcess {
        try ServerProcess(
            dataDirectory: data, arguments: ["--no-sample", "--threads", "8"],
            environment: ["TABCONFIG_ADMIN_TOKEN": token].merging(fault) { $1 })
    }

    /// Publishes version 1 of the test client under a plain server, which also creates the journal, and stops it.
    static func prepare(_ data: URL) throws {
        let server = try serve(data)
        defer { terminate(server) }
        let published = try publish(port: server.port, Fixtures.config(tabs.map { Fixtures.tab($0) }))
        guard published.status == 201 else { throw TestFailure("publish: \(published.status) \(published.text)") }
        guard try stop(server) == 0 else { throw TestFailure("the preparing server failed to stop: \(server.log)") }
    }

    /// Sends SIGTERM and returns the exit status; kills the process and fails when it has not exited within 20 s.
    static func stop(_ server: ServerProcess) throws -> Int32 {
        kill(server.process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(20)
        while server.process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        if server.process.isRunning {
            terminate(server)
            throw TestFailure("tabconfig did not exit within 20 s of SIGTERM; log: \(server.log)")
        }
        server.process.waitUntilExit()
        return server.process.terminationStatus
    }

    /// Kills the server if it still runs (cleanup after a failed expectation).
    static func terminate(_ server: ServerProcess) {
        guard server.process.isRunning else { return }
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
    }

    /// Runs `tabconfig serve` on a data directory expected to make startup fail; returns its status and stderr.
    static func runToExit(dataDirectory: URL, environment: [String: String]) throws -> (Int32, String) {
        var merged = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TABCONFIG_") }
        merged.merge(environment) { $1 }
        merged["TABCONFIG_ADMIN_TOKEN"] = token
        let process = try ChildProcess(
            executable: try ServerProcess.executable("tabconfig"),
            arguments: ["serve", "--port", "0", "--no-sample", "--data-dir", dataDirectory.path], environment: merged,
            standardOutput: .null, standardError: .pipe)
        let output = OutputBuffer()
        process.output?.readabilityHandler = { output.append($0.availableData) }
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw TestFailure("tabconfig kept running on \(dataDirectory.path); log: \(output.text)")
        }
        process.waitUntilExit()
        process.output?.readabilityHandler = nil
        output.append(process.output?.readDataToEndOfFile() ?? Data())
        return (process.terminationStatus, output.text)
    }

    /// Runs `body` for each index on its own thread, all at once, and returns the results in index order.
    static func onThreads<Value: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> Value) -> [Value] {
        let slots = Slots<Value>(count)
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                slots.set(index, body(index))
                group.leave()
            }.start()
        }
        group.wait()
        return slots.all
    }

    // MARK: Requests

    /// `PUT …/config` of the test client as admin.
    static func publish(port: Int, _ config: [String: Any]) throws -> TestResponse {
        try httpRequest(
            port: port, "PUT", "/v1/clients/\(client)/config", headers: admin + TestApp.json,
            body: try JSONSerialization.data(withJSONObject: config))
    }

    /// `PUT …/users/{user}/tab-order` with `order` and nothing hidden.
    static func save(port: Int, user: String, order: [String]) throws -> TestResponse {
        try httpRequest(
            port: port, "PUT", "/v1/clients/\(client)/users/\(user)/tab-order", headers: TestApp.json,
            body: try JSONSerialization.data(withJSONObject: ["order": order, "hidden": [String]()]))
    }

    /// Sends one write, recording a missing answer (a closed connection or a timeout) instead of throwing.
    static func send(port: Int, user: String, order: [String]) -> Write {
        do {
            return Write(user: user, order: order, response: try save(port: port, user: user, order: order))
        } catch {
            return Write(user: user, order: order, response: nil, error: "\(error)")
        }
    }

    /// What `GET …/users/{user}/tab-order` answers; throws unless it is 200.
    static func stored(port: Int, user: String) throws -> Stored {
        let response = try httpRequest(port: port, "GET", "/v1/clients/\(client)/users/\(user)/tab-order")
        guard response.status == 200 else {
            throw TestFailure("tab-order of \(user): \(response.status) \(response.text)")
        }
        return try decodeStored(response)
    }

    /// The order and revision in a tab-order body.
    static func decodeStored(_ response: TestResponse) throws -> Stored {
        guard let object = try response.json() as? [String: Any], let order = object["order"] as? [String],
            let revision = object["revision"] as? Int
        else { throw TestFailure("not a tab order: \(response.text)") }
        return Stored(order: order, revision: revision)
    }

    /// The live version number of the test client, read through the admin config endpoint.
    static func liveVersion(port: Int) throws -> Int? {
        let response = try httpRequest(port: port, "GET", "/v1/clients/\(client)/config", headers: admin)
        guard response.status == 200 else { throw TestFailure("config: \(response.status) \(response.text)") }
        return (try response.json() as? [String: Any])?["version"] as? Int
    }

    // MARK: Expectations

    /// The `index`th permutation of the tabs, so that every write stores a distinct order.
    static func permutation(_ index: Int) -> [String] {
        var remaining = tabs
        var index = index
        var result: [String] = []
        while !remaining.isEmpty {
            let block = (1..<remaining.count).reduce(1, *)
            result.append(remaining.remove(at: index / block))
            index %= block
        }
        return result
    }

    /// Per user, the acknowledged write with the highest revision, or `.unsaved` for a user with no acknowledged write.
    static func latestAcknowledged(_ acknowledged: [Write]) -> [String: Stored] {
        var latest = Dictionary(uniqueKeysWithValues: (0..<users).map { ("user-\($0)", Stored.unsaved) })
        for write in acknowledged {
            guard let saved = write.saved else { continue }
            if saved.revision > latest[write.user, default: .unsaved].revision {
                latest[write.user] = saved
            }
        }
        return latest
    }

    /// A refused write: 503 `application/problem+json` with the store-unavailable type.
    static func expectUnavailable(
        _ response: TestResponse?, _ error: String?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let response else {
            Issue.record("no answer: \(error ?? "?")", sourceLocation: sourceLocation)
            return
        }
        #expect(response.status == 503, "\(response.text)", sourceLocation: sourceLocation)
        #expect(
            response.headers["Content-Type"]?.hasPrefix("application/problem+json") == true,
            sourceLocation: sourceLocation)
        let problem = (try? response.json()) as? [String: Any]
        #expect(problem?["status"] as? Int == 503, sourceLocation: sourceLocation)
        #expect(
            problem?["type"] as? String == "urn:tabconfig:problem:store-unavailable", sourceLocation: sourceLocation)
    }

    /// docs/design/model.md, "What answers never contain": no body names a file, so none may contain the data directory's path.
    static func expectNoPaths(
        _ responses: [TestResponse], data: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let leaking = responses.map(\.text).filter { $0.contains(data.path) }
        let bodiesNamingTheDataDirectory = leaking.count
        #expect(
            bodiesNamingTheDataDirectory == 0, "of \(responses.count) 503 bodies; e.g. \(leaking.first ?? "")",
            sourceLocation: sourceLocation)
    }

    /// The failed store refuses writes and readiness, yet answers every read with the acknowledged state.
    /// Returns the 503 answers of `/readyz` and of a late write.
    static func expectFailedButReading(port: Int, expected: [String: Stored]) throws -> [TestResponse] {
        let readiness = try httpRequest(port: port, "GET", "/readyz")
        expectUnavailable(readiness, nil)
        #expect(try httpRequest(port: port, "GET", "/healthz").status == 200)
        #expect(try httpRequest(port: port, "GET", "/v1/clients/\(client)/tabs").status == 200)
        for (user, state) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(try stored(port: port, user: user) == state, "while failed, \(user) reads differently")
            #expect(try httpRequest(port: port, "GET", "/v1/clients/\(client)/users/\(user)/tabs").status == 200)
        }
        let late = try save(port: port, user: "late", order: permutation(0))
        expectUnavailable(late, nil)
        return [readiness, late]
    }
}

extension FaultInjectionTests {
    /// Whether the server's standard error shows `text` within a few seconds (the pipe is read on another thread).
    static func logEventually(_ server: ServerProcess, contains text: String) -> Bool {
        for _ in 0..<250 {
            if server.log.contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return server.log.contains(text)
    }
}
