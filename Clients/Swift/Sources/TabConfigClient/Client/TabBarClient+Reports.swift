import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TabBarClient {
    /// Counts an open of `tab`: the app showed it. `version` is the config version of the tab bar the tab was shown
    /// from; nil takes the tab bar the client delivered last (nothing is counted before one was). Clears the opening
    /// mark of `tab` (``beginOpening(tab:version:)``).
    ///
    /// The count is on disk when this returns, and reported with the others at most once a
    /// ``Configuration/reportInterval`` and when the app goes to the background. Reporting never delays or fails the
    /// tab bar: a service that refuses reports changes nothing the app sees.
    public nonisolated func reportOpen(tab: String, version: Int? = nil) {
        count(tab: tab, version: version, failed: false)
    }

    /// Counts a failed open of `tab`: the app could not make or show its screen. As ``reportOpen(tab:version:)``
    /// otherwise; a staged rollout of `tab` rolls back when too many of its opens fail.
    public nonisolated func reportOpenFailure(tab: String, version: Int? = nil) {
        count(tab: tab, version: version, failed: true)
    }

    /// Writes the mark "opening `tab`" to the client's storage before the app makes (or first shows) the tab's
    /// screen: if the app ends before ``endOpening(tab:)``, ``reportOpen(tab:version:)`` or
    /// ``reportOpenFailure(tab:version:)`` clears it, the next launch counts a failed open of `tab`: the app crashed
    /// opening it. One tab is marked at a time: a mark replaces the one before. `version` as in
    /// ``reportOpen(tab:version:)``.
    public nonisolated func beginOpening(tab: String, version: Int? = nil) {
        guard let version = version ?? deliveries.current?.tabBar.version else { return }
        reports.beginOpening(tab: tab, version: version)
    }

    /// Clears the mark of ``beginOpening(tab:version:)`` when it names `tab`, counting nothing: the screen was made
    /// and its open is counted when it is shown.
    public nonisolated func endOpening(tab: String) {
        reports.endOpening(tab: tab)
    }

    /// Counts an open in the reports file and, when counts appear where there were none, schedules a report.
    private nonisolated func count(tab: String, version: Int?, failed: Bool) {
        guard let version = version ?? deliveries.current?.tabBar.version,
            reports.count(tab: tab, version: version, failed: failed)
        else { return }
        Task { await scheduleReport() }
    }

    /// Schedules a report an interval after the last one, unless one is waiting or being sent, nothing is counted,
    /// or reporting is off.
    func scheduleReport() {
        guard !stopped, !reporting.isOff, reporting.task == nil, reports.hasCounts else { return }
        let delay = reporting.delay()
        reporting.task = Task {
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await sendReports()
        }
    }

    /// Reports now, not waiting for the interval (the app goes to the background), unless a report is being sent;
    /// returns the report's task.
    @discardableResult
    func reportNow() -> Task<Void, Never>? {
        guard !stopped, !reporting.isOff, !reporting.isSending, reports.hasCounts else { return nil }
        reporting.cancel()
        let task = Task { await sendReports() }
        reporting.task = task
        return task
    }

    /// Sends one report a version counted, the newest first, each taken off the counts once the service accepted it
    /// (2xx) or refused it as it is (400, 413, 422). Any other answer, or none, keeps the counts for the next report
    /// and sends no more now; a 404 (a service without reports) turns reporting off for the client's life. Nothing
    /// is sent while the service asked to wait (`Retry-After`), with a token it refused, or for ``User/me`` with a
    /// token of another user than the one whose counts these are. Nothing here changes ``status``.
    private func sendReports() async {
        reporting.isSending = true
        defer {
            reporting.isSending = false
            reporting.task = nil
            reporting.reported()
            scheduleReport()
        }
        guard !stopped, !reporting.isOff, schedule.remainingWait() == nil, let token = await reportToken() else {
            return
        }
        let (owner, pending) = reports.reports()
        for report in pending {
            guard let status = await send(report, token: token) else { return }
            switch status {
            case 200..<300, 400, 413, 422:
                reports.remove(report, owner: owner)
            case 404:
                reporting.isOff = true
                return
            default:
                return
            }
        }
    }

    /// The token to send reports with (`.some(nil)`: none); nil when none may be sent now: the provider failed, gave
    /// the token the service refused, or for ``User/me`` one of another user than the one whose files the client
    /// holds.
    private func reportToken() async -> String?? {
        let token: String?
        do {
            token = try await configuration.tokenProvider?() ?? nil
        } catch {
            return nil
        }
        guard !tokens.refuses(token) else { return nil }
        if configuration.identifiesUserByToken {
            guard let subject = storage?.subject, TokenSubject.of(token) == subject else { return nil }
        }
        return .some(token)
    }

    /// Posts `report` and returns the answer's status; nil when there was none.
    private func send(_ report: OpenReport, token: String?) async -> Int? {
        var request = request(reportsURL, method: "POST")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try? Self.reportEncoder.encode(report)
        if let reportSender { return try? await reportSender(request).status }
        return try? await transport.send(request).status
    }

    private static var reportEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// Lets a test answer the client's reports instead of the service.
    func setReportSender(_ sender: (@Sendable (URLRequest) async throws -> HTTPAnswer)?) {
        reportSender = sender
    }
}
