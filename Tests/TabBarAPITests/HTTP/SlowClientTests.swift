import Foundation
import MicroHTTPTesting
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Slow clients against the in-process application with a 2-second connection timeout: 200 connections that send
/// their request head slowly must not keep a normal client from being served, and the server must close them.
@Suite("slow clients")
struct SlowClientTests {
    private static let slowConnections = 200
    private static let connectionTimeout = 2
    /// How long the slow connections are watched: a few timeout periods, a generous bound rather than a measurement.
    private static let watchPeriods = 5
    private static let trickle = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)

    @Test("200 connections trickling a header byte a second: normal requests still get 200s, the slow ones are closed")
    func tricklingHeaders() throws {
        try TestApp.with(configure: { $0.connectionTimeout = Self.connectionTimeout }) { app in
            let outcome = try Self.watch(app, opening: 1, byteEverySecond: true)
            #expect(outcome.normal.failures.isEmpty, "normal client: \(outcome.normal.failures.prefix(5))")
            #expect(outcome.normal.succeeded > 0)
            #expect(
                outcome.closed == Self.slowConnections,
                "\(outcome.closed) of \(Self.slowConnections) trickling connections closed")
        }
    }

    @Test("200 connections stalled mid-header: normal requests still get 200s, the slow ones are closed")
    func stalledHeaders() throws {
        try TestApp.with(configure: { $0.connectionTimeout = Self.connectionTimeout }) { app in
            let outcome = try Self.watch(app, opening: 16, byteEverySecond: false)
            #expect(outcome.normal.failures.isEmpty, "normal client: \(outcome.normal.failures.prefix(5))")
            #expect(outcome.normal.succeeded > 0)
            #expect(
                outcome.closed == Self.slowConnections,
                "\(outcome.closed) of \(Self.slowConnections) stalled connections closed")
        }
    }

    /// Opens the slow connections (each sends the first `opening` bytes of a request head, then, if
    /// `byteEverySecond`, one more byte a second) while a normal client sends GETs on new connections; returns how
    /// many slow connections the server closed within ``watchPeriods`` timeouts and what the normal client got.
    private static func watch(
        _ app: TestApp, opening: Int, byteEverySecond: Bool
    ) throws -> (closed: Int, normal: NormalClient.Tally) {
        let normal = NormalClient(port: app.port)
        var slow: [TestClient] = []
        defer { slow.forEach { $0.close() } }
        for _ in 0..<slowConnections {
            let client = try TestClient(port: app.port)
            try client.sendRaw(Data(trickle[..<opening]))
            slow.append(client)
        }
        var open = Array(slow.indices)
        var sent = opening
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(connectionTimeout * watchPeriods))
        var nextByte = clock.now.advanced(by: .seconds(1))
        while !open.isEmpty, clock.now < deadline {
            open.removeAll { slow[$0].isClosedByPeer }
            if byteEverySecond, clock.now >= nextByte {
                let byte = Data([sent < trickle.count ? trickle[sent] : UInt8(ascii: "a")])
                open.removeAll { (try? slow[$0].sendRaw(byte)) == nil }
                sent += 1
                nextByte = nextByte.advanced(by: .seconds(1))
            }
            usleep(50_000)
        }
        return (slowConnections - open.count, normal.finish())
    }

    /// GETs the default tab bar on a new connection every 20 ms on its own thread until ``finish()``.
    final class NormalClient: Sendable {
        struct Tally: Sendable {
            var succeeded = 0
            var failures: [String] = []
        }

        private let tally = Mutex(Tally())
        private let stopped = Atomic<Bool>(false)
        private let done = DispatchSemaphore(value: 0)

        init(port: Int) {
            Thread { [self] in
                run(port: port)
                done.signal()
            }.start()
        }

        /// Stops the loop and returns what it saw.
        func finish() -> Tally {
            stopped.store(true, ordering: .releasing)
            if done.wait(timeout: .now() + 30) == .timedOut {
                tally.withLock { $0.failures.append("the normal client did not stop within 30 s") }
            }
            return tally.withLock { $0 }
        }

        private func run(port: Int) {
            while !stopped.load(ordering: .acquiring) {
                do {
                    let response = try httpRequest(port: port, "GET", "/v1/clients/ios-phone/tabs")
                    tally.withLock { tally in
                        if response.status == 200 {
                            tally.succeeded += 1
                        } else {
                            tally.failures.append("status \(response.status)")
                        }
                    }
                } catch {
                    tally.withLock { $0.failures.append("\(error)") }
                }
                usleep(20_000)
            }
        }
    }
}
