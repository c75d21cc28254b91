import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MicroHTTPTesting
@testable import TabBarAPI
import Testing
import TestSupport

/// Event streams next to requests: a publish does not wait for its subscribers, and streams never take the
/// connections requests need.
@Suite("event streams and capacity")
struct EventCapacityTests {
    private static let events = "/v1/clients/ios-phone/tabs/events"

    @Test("a publish is answered while its event has reached none of 5,000 subscribers; then every one gets it")
    func publishDoesNotWaitForSubscribers() throws {
        let subscribers = 5_000
        // Each subscriber is two descriptors in this process (the test's end and the server's), besides what the
        // tests running beside it hold.
        try #require(
            Self.raiseDescriptorLimit(to: 2 * subscribers + 2_000), "too few file descriptors for \(subscribers) streams")
        try TestApp.with(configure: {
            $0.connectionLimit = 8_000
            $0.maxEventSubscribers = subscribers
            $0.eventHeartbeat = 3_600
        }) { app in
            let readers = try (0..<subscribers).map { _ in try EventReader(port: app.port, path: Self.events) }
            defer { readers.forEach { $0.close() } }
            for reader in readers { _ = try reader.next() }

            // Holding the hub's fan-out queue holds every write of the publish's event: the PUT can only be
            // answered if it does not wait for them.
            let fanOut = app.application.events.fanOut
            fanOut.suspend()
            var held = true
            defer { if held { fanOut.resume() } }
            #expect(try app.publish("ios-phone", Fixtures.designExample) == 2)
            usleep(200_000)
            #expect(readers.filter(\.hasDataToRead).count == 0, "subscribers written to before the PUT's answer")
            fanOut.resume()
            held = false

            let received = Counter()
            DispatchQueue.concurrentPerform(iterations: readers.count) { index in
                if (try? readers[index].next())?.hasPrefix("id: 2\n") == true { received.increment() }
            }
            #expect(received.value == subscribers)
        }
    }

    /// Raises this process's soft limit of open files to `wanted` (at most the hard limit); whether it is that high now.
    private static func raiseDescriptorLimit(to wanted: Int) -> Bool {
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0 else { return false }
        if limit.rlim_cur < rlim_t(wanted) {
            limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
            _ = setrlimit(openFiles, &limit)
            guard getrlimit(openFiles, &limit) == 0 else { return false }
        }
        return limit.rlim_cur >= rlim_t(wanted)
    }

    /// `RLIMIT_NOFILE` as `getrlimit` takes it (Glibc imports it as a case of an enum).
    private static let openFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)

    @Test("streams up to their limit leave connections to requests; past it a stream gets 503 and is closed")
    func streamsLeaveRoomForRequests() throws {
        try TestApp.with(configure: {
            $0.connectionLimit = 64
            $0.maxEventSubscribers = 48
            $0.eventHeartbeat = 3_600
        }) { app in
            var readers: [EventReader] = []
            defer { readers.forEach { $0.close() } }
            var refused: [TestResponse] = []
            for _ in 0..<100 {
                let reader = try EventReader(port: app.port, path: Self.events)
                if reader.head.status == 200 {
                    readers.append(reader)
                } else {
                    refused.append(reader.head)
                    while try reader.client.readBodyChunk() != nil {}
                    #expect(eventually(within: 10) { reader.client.isClosedByPeer }, "a refused stream's connection")
                    reader.close()
                }
            }
            #expect(readers.count == 48)
            #expect(refused.count == 52)
            let problem = try #require(refused.first)
            #expect(problem.status == 503)
            #expect(problem.headers["Retry-After"] == "5")
            #expect(problem.headers["Connection"]?.lowercased() == "close")
            #expect(problem.headers["Content-Type"] == "application/problem+json")

            #expect(try app.request("GET", "/healthz").status == 200)
            #expect(try app.publish("ios-phone", Fixtures.designExample) == 2)
            for reader in readers {
                _ = try reader.next()
                #expect(try reader.next().hasPrefix("id: 2\n"))
            }
        }
    }

    @Test("a subscriber limit that leaves requests less than a quarter of the connections: exit 64, one line")
    func subscriberLimitMustFit() throws {
        let directory = try TemporaryDirectory("event-capacity")
        defer { directory.remove() }
        let data = directory.url.appendingPathComponent("data")
        let (status, output) = try ServerProcess.run(
            ["serve", "--port", "0", "--data-dir", data.path],
            environment: ["TABCONFIG_MAX_EVENT_SUBSCRIBERS": "20000"])
        #expect(status == 64)
        let lines = output.split(separator: "\n")
        #expect(lines.count == 1, "\(output)")
        #expect(output.contains("TABCONFIG_MAX_EVENT_SUBSCRIBERS must be 0…768, got 20000"))
        #expect(!FileManager.default.fileExists(atPath: data.path), "the data directory was touched")
        var configuration = ApplicationConfiguration()
        configuration.connectionLimit = 2_000
        configuration.maxEventSubscribers = 1_500
        #expect(throws: Never.self) { try configuration.validated() }
        configuration.maxEventSubscribers = 1_501
        #expect(throws: ConfigurationError.self) { try configuration.validated() }
    }
}
