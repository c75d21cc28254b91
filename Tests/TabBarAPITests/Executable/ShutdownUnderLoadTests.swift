import Foundation
import MicroHTTPTesting
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// SIGTERM while the real executable is under load.
///
/// A request counts as accepted once the server has read its head (it is then in flight and shutdown waits for it).
/// Accepted but failed = the 5xx answers other than the readiness 503, plus the accepted requests dropped without a
/// whole answer. Those are seen from two sides, each a lower bound of the same set, so the larger is taken: the
/// server's own count of requests still in flight when its grace period ran out (its log), and the clients'
/// evidence: a response head followed by a broken body, a PUT stored but never answered (the stored revision, read
/// after a restart, is past the last acknowledged one), and the request held in flight across the SIGTERM. A request
/// that gets no response head at all on a connection the server then closed, or a connection refused once the
/// listening socket is gone, was never accepted and is not a failure.
@Suite("graceful shutdown under load")
struct ShutdownUnderLoadTests {
    private static let loadThreads = 6
    private static let client = "ios-phone"
    private static let tabIDs = ["home", "search", "library", "favorites", "profile", "settings", "downloads"]
    private static let environment = ["TABCONFIG_ADMIN_TOKEN": "shutdown-under-load", "TABCONFIG_SHUTDOWN_GRACE": "5"]

    @Test("SIGTERM under load: /readyz 503 at once, every accepted request answered whole, exit 0 within 8 s")
    func sigtermUnderLoad() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(dataDirectory: directory, environment: Self.environment)
        defer {
            if server.process.isRunning { _ = server.stop(signal: SIGKILL) }
        }
        let port = server.port
        let tally = LoadTally()
        let workers = (0..<Self.loadThreads).map { index in
            Background { Self.generateLoad(port: port, index: index, tally: tally) }
        }
        defer {
            tally.stop()
            for worker in workers { _ = worker.join() }
        }
        try #require(eventually(within: 30) { tally.snapshot.completed >= 200 }, "the load generator did not get going")

        let holderUser = "holder"
        let holderOrder = ["profile", "home", "search"]
        let holderBody = try JSONSerialization.data(withJSONObject: ["order": holderOrder, "hidden": []])
        let holder = try RawConnection(port: port)
        try holder.send(
            Data(
                ("PUT \(Self.tabOrderPath(holderUser)) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nExpect: 100-continue\r\n"
                    + "Content-Length: \(holderBody.count)\r\n\r\n").utf8))
        let interim = try holder.readHead()
        try #require(interim.hasPrefix("HTTP/1.1 100"), "the server did not take the held request: \(interim)")

        var probe = try TestClient(port: port)
        defer { probe.close() }
        try #require(try probe.send("GET", "/readyz").status == 200)

        tally.markShutdown()
        let clock = ContinuousClock()
        let signalled = clock.now
        #expect(kill(server.process.processIdentifier, SIGTERM) == 0)

        // The probe polls as an HTTP client does: on its open keep-alive connection, and, once an answer carried
        // `Connection: close` (a /readyz that was being answered as the signal came), on a new connection, which the
        // listening socket, shut down at SIGTERM, refuses (or resets, had the kernel queued it just before). Either
        // tells the probe the server is not ready. The server never closes a connection without saying so first:
        // the held request keeps it in its grace period.
        var readiness: TestResponse?
        var refusedAfterClose = false
        var reopened = false
        for _ in 0..<2_000 {
            let answer: TestResponse
            do {
                answer = try probe.send("GET", "/readyz")
            } catch {
                if reopened {
                    refusedAfterClose = true
                } else {
                    Issue.record("the open keep-alive connection got no answer from /readyz after SIGTERM: \(error)")
                }
                break
            }
            guard answer.status == 200 else {
                readiness = answer
                break
            }
            if answer.headers["Connection"]?.lowercased() == "close" {
                probe.close()
                guard let connection = try? TestClient(port: port) else {
                    refusedAfterClose = true
                    break
                }
                probe = connection
                reopened = true
            }
            usleep(5_000)
        }
        let readinessText = readiness.map { "\($0.status) \($0.text)" } ?? "none"
        #expect(readiness?.status == 503 || refusedAfterClose, "/readyz after SIGTERM: \(readinessText)")
        if let readiness {
            #expect(readiness.headers["Content-Type"]?.hasPrefix("application/problem+json") == true)
        }
        let settled = eventually(within: 30) {
            let served = tally.snapshot.servedAfterSignal
            return workers.indices.allSatisfy { served.contains($0) || workers[$0].isFinished }
        }
        #expect(
            settled && tally.snapshot.servedAfterSignal.count == Self.loadThreads,
            "load connections served while the server drained: \(tally.snapshot.servedAfterSignal.sorted())")

        var heldFailure: String?
        do {
            try holder.send(holderBody)
            let held = try holder.readResponse()
            if held.status == 200, let revision = Self.revision(in: held.body) {
                tally.acknowledge(user: holderUser, revision: revision, order: holderOrder)
            } else {
                heldFailure = "\(held.status) \(String(decoding: held.body, as: UTF8.self))"
            }
        } catch {
            heldFailure = "\(error)"
        }

        while server.process.isRunning, clock.now < signalled.advanced(by: .seconds(8)) {
            usleep(10_000)
        }
        #expect(!server.process.isRunning, "the server did not exit within 8 s of SIGTERM")
        if server.process.isRunning { _ = server.stop(signal: SIGKILL) }
        server.process.waitUntilExit()
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
        tally.stop()
        for worker in workers {
            #expect(worker.join(), "a load thread did not finish")
        }

        let counts = tally.snapshot
        let graceExpired = Self.requestsLeftAtGraceExpiry(in: server.log)
        let stored = try Self.storedRevisions(
            directory: directory, users: Array(counts.acknowledged.keys) + Self.loadUsers)
        var appliedUnanswered = 0
        var lost: [String] = []
        for (user, revision) in stored {
            let acknowledged = counts.acknowledged[user]
            let acknowledgedRevision = acknowledged?.revision ?? 0
            if revision.revision > acknowledgedRevision, user != holderUser {
                appliedUnanswered += Int(revision.revision - acknowledgedRevision)
            } else if revision.revision < acknowledgedRevision {
                lost.append("\(user): stored \(revision.revision) < acknowledged \(acknowledgedRevision)")
            } else if let acknowledged, acknowledged.order != revision.order {
                lost.append(
                    "\(user): revision \(revision.revision) holds \(revision.order), acknowledged \(acknowledged.order)"
                )
            }
        }

        let droppedSeenByClients = counts.brokenResponses.count + appliedUnanswered + (heldFailure == nil ? 0 : 1)
        let acceptedButFailed = counts.serverErrors.count + max(graceExpired, droppedSeenByClients)
        #expect(
            acceptedButFailed == 0,
            """
            accepted but failed: \(acceptedButFailed) (request held in flight at SIGTERM: \
            \(heldFailure ?? "answered"); 5xx: \(counts.serverErrors); broken mid-response: \
            \(counts.brokenResponses); stored but unanswered PUTs: \(appliedUnanswered); in flight when the grace \
            period ran out: \(graceExpired)); complete responses \(counts.completed), not accepted \(counts.notAccepted)
            """)
        #expect(lost.isEmpty, "acknowledged writes lost: \(lost)")
        #expect(counts.failuresBeforeShutdown.isEmpty, "failures before SIGTERM: \(counts.failuresBeforeShutdown)")
        #expect(counts.unexpectedStatuses.isEmpty, "unexpected statuses: \(counts.unexpectedStatuses)")
    }

    // MARK: - Load

    private static var loadUsers: [String] { (0..<loadThreads).map { "load-\($0)" } }

    private static func tabOrderPath(_ user: String) -> String {
        "/v1/clients/\(client)/users/\(user)/tab-order"
    }

    /// One load thread: GETs and PUTs over a keep-alive connection, reconnecting after `Connection: close`, until
    /// the server is gone (or the test stops it).
    private static func generateLoad(port: Int, index: Int, tally: LoadTally) {
        let user = "load-\(index)"
        var connection: TestClient?
        var step = 0
        while !tally.isStopped {
            let client: TestClient
            if let connection {
                client = connection
            } else {
                do {
                    client = try TestClient(port: port)
                } catch {
                    tally.connectFailed("\(error)")
                    return
                }
                connection = client
            }
            step += 1
            let keepOpen: Bool
            switch step % 4 {
            case 1:
                let rotation = step % tabIDs.count
                let order = Array(tabIDs[rotation...] + tabIDs[..<rotation])
                keepOpen = put(client, user: user, order: order, thread: index, tally: tally)
            case 2:
                keepOpen = get(client, "/v1/clients/\(Self.client)/users/\(user)/tabs", thread: index, tally: tally)
            case 3:
                keepOpen = get(client, tabOrderPath(user), thread: index, tally: tally)
            default:
                keepOpen = get(client, "/v1/clients/\(Self.client)/tabs", thread: index, tally: tally)
            }
            if !keepOpen {
                client.close()
                connection = nil
            }
        }
    }

    /// A GET whose head and body are read separately, so a body cut short is told apart from no answer at all.
    /// Returns whether the connection can carry the next request.
    private static func get(_ client: TestClient, _ target: String, thread: Int, tally: LoadTally) -> Bool {
        let head: TestResponse
        do {
            head = try client.openStream("GET", target)
        } catch {
            tally.noAnswer("GET \(target): \(error)")
            return false
        }
        do {
            while try client.readBodyChunk() != nil {}
        } catch {
            tally.broken("GET \(target) \(head.status): \(error)")
            return false
        }
        tally.answered("GET \(target)", head, thread: thread)
        return head.headers["Connection"]?.lowercased() != "close"
    }

    /// A PUT of a tab order; a 200 is recorded as acknowledged. Whether an unanswered PUT was stored is checked
    /// after a restart. Returns whether the connection can carry the next request.
    private static func put(
        _ client: TestClient, user: String, order: [String], thread: Int, tally: LoadTally
    ) -> Bool {
        let response: TestResponse
        do {
            let body = try JSONSerialization.data(withJSONObject: ["order": order, "hidden": []])
            response = try client.send(
                "PUT", tabOrderPath(user), headers: [("Content-Type", "application/json")], body: body)
        } catch {
            tally.noAnswer("PUT \(user): \(error)")
            return false
        }
        tally.answered("PUT \(user)", response, thread: thread)
        if response.status == 200, let revision = revision(in: response.body) {
            tally.acknowledge(user: user, revision: revision, order: order)
        }
        return response.headers["Connection"]?.lowercased() != "close"
    }

    // MARK: - Evidence

    private static func revision(in body: Data) -> UInt64? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let number = object["revision"] as? NSNumber
        else { return nil }
        return number.uint64Value
    }

    /// The `requests=N` of the server's "grace period over" warning, or 0 if it never ran out of grace.
    private static func requestsLeftAtGraceExpiry(in log: String) -> Int {
        log.split(separator: "\n").filter { $0.contains("grace period over") }.reduce(0) { total, line in
            guard let range = line.range(of: "requests=") else { return total + 1 }
            return total + (Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 1)
        }
    }

    /// Restarts the server on `directory` and reads every user's stored revision and order.
    private static func storedRevisions(
        directory: URL, users: [String]
    ) throws -> [String: (revision: UInt64, order: [String])] {
        let server = try ServerProcess(dataDirectory: directory, environment: environment)
        defer { #expect(server.stop() == 0) }
        var stored: [String: (revision: UInt64, order: [String])] = [:]
        for user in Set(users) {
            let response = try httpRequest(port: server.port, "GET", tabOrderPath(user))
            try #require(response.status == 200, "GET tab-order of \(user): \(response.status) \(response.text)")
            let object = try #require(try response.json() as? [String: Any])
            let revision = try #require(object["revision"] as? NSNumber).uint64Value
            stored[user] = (revision, object["order"] as? [String] ?? [])
        }
        return stored
    }

    // MARK: - Helpers

    /// What the load threads saw, shared between them.
    final class LoadTally: Sendable {
        struct Counts: Sendable {
            var completed = 0
            /// The load threads that got a complete response after SIGTERM.
            var servedAfterSignal: Set<Int> = []
            var notAccepted = 0
            var serverErrors: [String] = []
            var unexpectedStatuses: [String] = []
            var brokenResponses: [String] = []
            var failuresBeforeShutdown: [String] = []
            var acknowledged: [String: (revision: UInt64, order: [String])] = [:]
        }

        private let counts = Mutex(Counts())
        private let shuttingDown = Atomic<Bool>(false)
        private let stopped = Atomic<Bool>(false)

        var snapshot: Counts { counts.withLock { $0 } }
        var isStopped: Bool { stopped.load(ordering: .acquiring) }

        /// From now on, requests left unanswered are attributed to the shutdown.
        func markShutdown() { shuttingDown.store(true, ordering: .releasing) }
        func stop() { stopped.store(true, ordering: .releasing) }

        func answered(_ request: String, _ response: TestResponse, thread: Int) {
            let afterSignal = shuttingDown.load(ordering: .acquiring)
            counts.withLock { counts in
                if afterSignal { counts.servedAfterSignal.insert(thread) }
                switch response.status {
                case 200..<300: counts.completed += 1
                case 500...: counts.serverErrors.append("\(request): \(response.status) \(response.text)")
                default: counts.unexpectedStatuses.append("\(request): \(response.status) \(response.text)")
                }
            }
        }

        func broken(_ description: String) {
            counts.withLock { $0.brokenResponses.append(description) }
        }

        func noAnswer(_ description: String) {
            notAccepted(description)
        }

        func connectFailed(_ description: String) {
            notAccepted("connect: \(description)")
        }

        func acknowledge(user: String, revision: UInt64, order: [String]) {
            counts.withLock { counts in
                if revision > counts.acknowledged[user]?.revision ?? 0 {
                    counts.acknowledged[user] = (revision, order)
                }
            }
        }

        private func notAccepted(_ description: String) {
            let afterSignal = shuttingDown.load(ordering: .acquiring)
            counts.withLock { counts in
                if afterSignal {
                    counts.notAccepted += 1
                } else {
                    counts.failuresBeforeShutdown.append(description)
                }
            }
        }
    }

    /// A bare TCP connection, for a request whose interim `100 Continue` must be read before its body is sent.
    final class RawConnection {
        private let descriptor: Int32
        private var buffer: [UInt8] = []

        init(port: Int) throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw TestFailure("socket() failed") }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else { throw TestFailure("cannot connect to 127.0.0.1:\(port)") }
        }

        deinit { Glibc.close(descriptor) }

        func send(_ data: Data) throws {
            try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                var sent = 0
                while sent < bytes.count {
                    let result = Glibc.send(
                        descriptor, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                    guard result > 0 else { throw TestFailure("send failed: errno \(errno)") }
                    sent += result
                }
            }
        }

        /// The next response head, without its blank line.
        func readHead() throws -> String {
            let end: [UInt8] = [13, 10, 13, 10]
            while true {
                let candidates = 0..<max(buffer.count - 3, 0)
                if let index = candidates.first(where: { buffer[$0..<($0 + 4)].elementsEqual(end) }) {
                    let head = String(decoding: buffer[..<index], as: UTF8.self)
                    buffer.removeFirst(index + 4)
                    return head
                }
                try fill()
            }
        }

        /// The status and body of a whole response with a `Content-Length` body (what the tab-order PUT answers).
        func readResponse() throws -> (status: Int, body: Data) {
            let lines = try readHead().components(separatedBy: "\r\n")
            let parts = lines[0].split(separator: " ")
            guard parts.count >= 2, let status = Int(parts[1]) else { throw TestFailure("bad status line \(lines[0])") }
            let prefix = "content-length:"
            let length = lines.dropFirst().first { $0.lowercased().hasPrefix(prefix) }
                .flatMap { Int($0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)) } ?? 0
            while buffer.count < length { try fill() }
            let body = Data(buffer[..<length])
            buffer.removeFirst(length)
            return (status, body)
        }

        private func fill() throws {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else {
                throw TestFailure(count == 0 ? "the server closed the connection" : "recv failed: errno \(errno)")
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}
