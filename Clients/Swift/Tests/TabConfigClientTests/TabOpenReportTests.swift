import Foundation
import Testing

@testable import TabConfigClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stands in for the service's reports endpoint: records each report a client sends and answers it with the next
/// status of `answers` (202 once they run out; nil fails the request as a network error would). `during` runs while
/// a report is in flight.
final class ReportEndpoint: Sendable {
    private let state: Locked<(answers: [Int?], requests: [URLRequest])>
    private let continuation: AsyncStream<URLRequest>.Continuation
    /// Each report as it arrives.
    let arrivals: AsyncStream<URLRequest>
    private let during: @Sendable (Int) -> Void

    init(answers: [Int?] = [], during: @escaping @Sendable (Int) -> Void = { _ in }) {
        state = Locked((answers, []))
        (arrivals, continuation) = AsyncStream.makeStream()
        self.during = during
    }

    /// The reports received, in order.
    var requests: [URLRequest] { state.withLock { $0.requests } }

    /// The reports' bodies, as JSON objects.
    var bodies: [NSDictionary] {
        requests.map { request in
            (request.httpBody.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? NSDictionary) ?? [:]
        }
    }

    func answer(_ request: URLRequest) async throws -> HTTPAnswer {
        let (number, status) = state.withLock { state -> (Int, Int??) in
            state.requests.append(request)
            return (state.requests.count, state.answers.isEmpty ? .some(202) : state.answers.removeFirst())
        }
        during(number)
        continuation.yield(request)
        guard let status = status ?? nil else { throw URLError(.notConnectedToInternet) }
        return HTTPAnswer(status: status)
    }
}

extension TabBarClient {
    /// Makes `endpoint` answer this client's reports.
    func answerReports(with endpoint: ReportEndpoint) {
        setReportSender { try await endpoint.answer($0) }
    }

    /// Serves `tabBar` as the service's answer, as a 200 would.
    func receive(_ tabBar: TabBar) throws {
        try answers.received(
            tabBar, body: JSONEncoder().encode(tabBar), etag: "\"v\(tabBar.version)\"", request: requestKey, at: Date())
        deliver()
    }
}

/// A storage directory of its own and a stand-in for the reports endpoint, for clients that report tab opens.
private struct Reporting {
    let scratch = Scratch()
    let endpoint: ReportEndpoint

    init(answers: [Int?] = [], during: @escaping @Sendable (Int) -> Void = { _ in }) {
        endpoint = ReportEndpoint(answers: answers, during: during)
    }

    /// A client for `user` serving a bundled tab bar of `version`, its files read unless not `reading`, reporting
    /// every `interval` to the endpoint.
    func client(
        version: Int = 7, interval: Duration? = .seconds(3600), reading: Bool = true,
        user: TabBarClient.User = .id("ann"), token: @escaping TabBarClient.TokenProvider = { nil }
    ) async -> TabBarClient {
        var configuration = scratch.configuration()
        configuration.user = user
        configuration.bundledDefault = tabBar(version: version)
        configuration.reportInterval = interval
        configuration.tokenProvider = token
        let client = TabBarClient(configuration: configuration)
        await client.answerReports(with: endpoint)
        if reading { await client.loadIfNeeded(identifying: true) }
        return client
    }
}

private func tabBar(version: Int) -> TabBar {
    var tabBar = PresenterFixtures.tabBar("abc")
    tabBar.version = version
    return tabBar
}

@Suite("TabBarClient reports tab opens for guarded rollouts")
struct TabOpenReportTests {
    @Test("A report a version, newest first: {version, tabs: {id: {opened, failed}}} posted to …/reports")
    func reportBody() async throws {
        let reporting = Reporting()
        let client = await reporting.client(reading: false)
        client.reportOpen(tab: "a")
        #expect(!client.reports.hasCounts)  // nothing delivered yet: no version to count for

        await client.loadIfNeeded()
        client.reportOpen(tab: "a")
        client.reportOpen(tab: "a")
        client.reportOpenFailure(tab: "a")
        client.reportOpen(tab: "b", version: 6)
        await client.reportNow()?.value

        let request = try #require(reporting.endpoint.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://tabs.example.com/v1/clients/app/reports")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(
            reporting.endpoint.bodies == [
                ["version": 7, "tabs": ["a": ["opened": 2, "failed": 1]]],
                ["version": 6, "tabs": ["b": ["opened": 1, "failed": 0]]],
            ])
        #expect(!client.reports.hasCounts)
        #expect(!FileManager.default.fileExists(atPath: reporting.scratch.storage().reportsFile.path))
    }

    @Test("Opens count for the version of the tab bar delivered when they happened")
    func versionShownThen() async throws {
        let reporting = Reporting()
        let client = await reporting.client()
        client.reportOpen(tab: "a")
        try await client.receive(tabBar(version: 8))
        client.reportOpen(tab: "a")
        client.reportOpenFailure(tab: "b")
        await client.reportNow()?.value
        #expect(
            reporting.endpoint.bodies == [
                ["version": 8, "tabs": ["a": ["opened": 1, "failed": 0], "b": ["opened": 0, "failed": 1]]],
                ["version": 7, "tabs": ["a": ["opened": 1, "failed": 0]]],
            ])
    }

    @Test("The next launch reports what a launch counted, and the tab it ended while opening as failed, once")
    func nextLaunch() async throws {
        let reporting = Reporting()
        let crashed = await reporting.client()
        crashed.reportOpenFailure(tab: "a")
        crashed.beginOpening(tab: "b")
        crashed.endOpening(tab: "b")
        crashed.beginOpening(tab: "c")
        crashed.reportOpen(tab: "c")
        crashed.beginOpening(tab: "d")
        #expect(reporting.scratch.storage().loadReports()?.opening == .init(tab: "d", version: 7))
        // The app ends here, the mark still on disk, nothing reported.
        #expect(reporting.endpoint.requests.isEmpty)

        let relaunched = await reporting.client(version: 8)
        await relaunched.reportNow()?.value
        let tabs: NSDictionary = [
            "a": ["opened": 0, "failed": 1], "c": ["opened": 1, "failed": 0], "d": ["opened": 0, "failed": 1],
        ]
        #expect(reporting.endpoint.bodies == [["version": 7, "tabs": tabs]])
        #expect(reporting.scratch.storage().loadReports() == nil)
    }

    @Test("The app going to the background reports at once, each time, even when it never said it was active")
    func backgroundReports() async throws {
        let reporting = Reporting()
        let client = await reporting.client()
        await client.setActive(false)
        client.reportOpen(tab: "a")
        await client.setActive(false)
        await client.reportSent()
        client.reportOpen(tab: "b")
        await client.setActive(false)
        await client.reportSent()
        let tabs = reporting.endpoint.bodies.map { ($0["tabs"] as? NSDictionary)?.allKeys as? [String] }
        #expect(tabs == [["a"], ["b"]])
    }

    @Test("On the timer: one report an interval, the first an interval after the client was made")
    func schedule() {
        let start = ContinuousClock.now
        var schedule = ReportSchedule(interval: .seconds(60), now: start)
        #expect(!schedule.isOff)
        #expect(schedule.delay(now: start + .seconds(10)) == .seconds(50))
        #expect(schedule.delay(now: start + .seconds(90)) == .zero)
        schedule.reported(at: start + .seconds(100))
        #expect(schedule.delay(now: start + .seconds(130)) == .seconds(30))
        #expect(ReportSchedule(interval: nil).isOff)
    }

    @Test("Counts made while a report is in flight go in the next one, which the timer sends by itself")
    func countedDuringFlight() async throws {
        let client = Locked<TabBarClient?>(nil)
        let reporting = Reporting { number in
            if number == 1 { client.withLock { $0 }?.reportOpenFailure(tab: "a") }
        }
        let made = await reporting.client(interval: .milliseconds(10))
        client.withLock { $0 = made }
        made.reportOpen(tab: "a")
        var arrivals = reporting.endpoint.arrivals.makeAsyncIterator()
        _ = await arrivals.next()
        _ = await arrivals.next()
        #expect(
            reporting.endpoint.bodies == [
                ["version": 7, "tabs": ["a": ["opened": 1, "failed": 0]]],
                ["version": 7, "tabs": ["a": ["opened": 0, "failed": 1]]],
            ])
        await made.shutdown()
    }

    @Test(
        "A refused report changes nothing the app sees; 400, 413 and 422 drop it, 404 ends reporting, others keep it",
        arguments: [202, 400, 401, 403, 404, 413, 422, 429, 500, 503, nil] as [Int?])
    func refusal(status: Int?) async throws {
        let reporting = Reporting(answers: [status])
        let client = await reporting.client()
        let delivered = client.current
        let statusBefore = client.status
        client.reportOpen(tab: "a")
        await client.reportNow()?.value

        #expect(client.current == delivered)
        #expect(client.status == statusBefore)
        let dropped = [202, 400, 413, 422].contains(status)
        #expect(client.reports.hasCounts == !dropped)
        #expect(await client.reporting.isOff == (status == 404))
        if !dropped, status != 404 {
            // Kept for the next report, an interval away: nothing is retried before.
            #expect(await client.reporting.task != nil)
            #expect(await client.reporting.delay() > .seconds(3500))
        }

        client.reportOpen(tab: "b")
        await client.reportNow()?.value
        #expect(reporting.endpoint.requests.count == (status == 404 ? 1 : 2))
        #expect(client.status == statusBefore)
        await client.shutdown()
    }

    @Test("No report goes with a token the service refused, nor for .me with another user's token")
    func tokens() async throws {
        let reporting = Reporting()
        let refused = await reporting.client(token: { "refused" })
        await refused.refuseToken("refused")
        refused.reportOpen(tab: "a")
        await refused.reportNow()?.value
        #expect(reporting.endpoint.requests.isEmpty)
        #expect(refused.reports.hasCounts)
        await refused.shutdown()

        let token = Locked(jwt(#"{"sub":"bob"}"#))
        let me = await reporting.client(user: .me, token: { token.withLock { $0 } })
        me.reportOpen(tab: "a")
        token.withLock { $0 = jwt(#"{"sub":"eve"}"#) }
        await me.reportNow()?.value
        #expect(reporting.endpoint.requests.isEmpty)
        token.withLock { $0 = jwt(#"{"sub":"bob"}"#) }
        await me.reportNow()?.value
        let authorization = reporting.endpoint.requests.first?.value(forHTTPHeaderField: "Authorization")
        #expect(authorization == "Bearer \(token.withLock { $0 })")
        await me.shutdown()
    }

    @Test("Without a report interval nothing is counted, marked or sent")
    func off() async throws {
        let reporting = Reporting()
        let client = await reporting.client(interval: nil)
        client.beginOpening(tab: "a")
        client.reportOpen(tab: "a")
        await client.setActive(false)
        #expect(!client.reports.hasCounts)
        #expect(reporting.endpoint.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: reporting.scratch.storage().reportsFile.path))
    }
}

extension TabBarClient {
    /// The service refused `token`, as after a 401.
    fileprivate func refuseToken(_ token: String) {
        tokens.refuse(token)
    }

    /// Waits for the report being sent, when one is; returns at once when none is waiting either.
    fileprivate func reportSent() async {
        await reporting.task?.value
    }
}
