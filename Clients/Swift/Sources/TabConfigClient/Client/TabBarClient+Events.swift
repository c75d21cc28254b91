import Foundation

extension TabBarClient {
    /// Tells the client whether the app is in the foreground. Active: it revalidates the tab bar and sends a pending
    /// save at once, follows the event stream (revalidating when a new version goes live) and refreshes on
    /// ``Configuration/refreshInterval``. Inactive: the stream and the timer stop, and the tab opens counted are
    /// reported (each time the app says so, also when it never said it was active).
    public func setActive(_ active: Bool) async {
        guard !stopped else { return }
        if !active { reportNow() }
        guard active != isActive else { return }
        isActive = active
        if active {
            await loadIfNeeded()
            guard isActive, !stopped else { return }
            revalidateInBackground()
            startEvents()
            startPeriodicRefresh()
        } else {
            events.stop()
            schedule.stopPeriodic()
            statuses.update { $0.eventStream = .stopped }
        }
    }

    /// Follows the event stream in a task of its own unless it is followed already.
    func startEvents() {
        guard !stopped, isActive else { return }
        events.begin { generation in
            Task {
                await self.followEvents()
                self.eventsEnded(generation)
            }
        }
    }

    private func eventsEnded(_ generation: Int) {
        guard events.ended(generation) else { return }
        statuses.update { $0.eventStream = .stopped }
    }

    /// Connects, reads events until the stream ends, and reconnects with backoff (never before a `Retry-After`),
    /// sending `Last-Event-ID`; stops when the app goes inactive or a token is refused (a later successful request
    /// starts it again).
    private func followEvents() async {
        if let fetchTask { _ = try? await fetchTask.value }
        var attempt = 0
        while isActive, !stopped, !Task.isCancelled, !tokens.isClosed {
            if let wait = remainingWait() {
                statuses.update { $0.eventStream = .waiting }
                try? await Task.sleep(for: wait)
                continue
            }
            statuses.update { $0.eventStream = .connecting }
            if await connectOnce() { attempt = 0 }
            guard isActive, !stopped, !Task.isCancelled, !tokens.isClosed else { break }
            statuses.update { $0.eventStream = .waiting }
            var delay = configuration.retryPolicy.backoff.delay(attempt: attempt)
            attempt += 1
            if let wait = remainingWait(), wait > delay { delay = wait }
            try? await Task.sleep(for: delay)
        }
    }

    /// One connection to the event stream; returns whether the service accepted it.
    private func connectOnce() async -> Bool {
        let token: String?
        do {
            token = try await admittedToken()
        } catch {
            return false
        }
        var request = request(eventsURL)
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let lastEventID = events.lastEventID { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
        var parser = ServerSentEventParser(lastEventID: events.lastEventID)
        var connected = false
        // A refusal's head and body (its problem document), judged once the body is read.
        var refusal: HTTPAnswer?
        do {
            for try await chunk in eventStreams.open(request) {
                switch chunk {
                case .head(let status, let retryAfter) where status == 200:
                    _ = try screen(HTTPAnswer(status: status, retryAfter: retryAfter), token: token)
                    connected = true
                    statuses.update { $0.eventStream = .connected }
                    reachable()
                case .head(let status, let retryAfter):
                    refusal = HTTPAnswer(status: status, retryAfter: retryAfter)
                case .bytes(let data) where connected:
                    for event in parser.feed(data) { received(event) }
                    events.lastEventID = parser.lastEventID
                case .bytes(let data):
                    if let body = refusal?.body, body.count + data.count <= Self.maxRefusalBody {
                        refusal?.body.append(data)
                    }
                }
            }
            if let refusal {
                throw rejection(try screen(refusal, token: token))
            }
        } catch is TabBarClientError {
            // Recorded where it was made.
        } catch {
            if !Task.isCancelled, !connected {
                statuses.update { $0.connection = .unreachable }
                _ = record(.network(error.localizedDescription))
            }
        }
        return connected
    }

    /// The most of a refused event stream's body kept, for its problem document.
    private static let maxRefusalBody = 64 * 1024

    /// A `version` event whose version differs from the held tab bar's, or a `builds` or `rollout` event, makes the
    /// client revalidate.
    private func received(_ event: ServerSentEvent) {
        switch event.type {
        case "version":
            guard let version = try? JSONDecoder().decode(VersionEvent.self, from: Data(event.data.utf8)) else { return }
            if answers.held?.tabBar.version != version.version || answers.held?.source == .bundled {
                revalidateInBackground()
            }
        case "builds", "rollout":
            // A build manifest changed, or a staged rollout moved: what this app gets can have changed with the same
            // version. The revalidation is a 304 when it did not.
            revalidateInBackground()
        default:
            break
        }
    }

    /// Revalidates every ``Configuration/refreshInterval`` while the app is active.
    private func startPeriodicRefresh() {
        guard let interval = configuration.refreshInterval, schedule.periodic == nil else { return }
        schedule.periodic = Task {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
                _ = try? await self.revalidate()
            }
        }
    }
}
