import Foundation

extension TabBarClient {
    /// Asks the service for the tab bar now (revalidating the held one) and returns the delivery. Joins a request
    /// already in flight. Throws when the service cannot answer; the held answer is still served then.
    @discardableResult
    public func refresh() async throws -> TabBarDelivery {
        try await prepare()
        return try await revalidate()
    }

    /// Tells the client the token provider may give another token now (the user signed in again, or another user
    /// signed in): after a 401 or 403 the client asks it at once instead of at the next occasion; for ``User/me``
    /// the tab bar and pending save of the user it names are served from then on.
    public func credentialsChanged() async {
        guard !stopped else { return }
        await loadIfNeeded(identifying: true)
        revalidateInBackground()
    }

    /// Revalidates the held answer, joining a revalidation in flight.
    func revalidate() async throws -> TabBarDelivery {
        try await beginRevalidation().value
    }

    /// ``revalidate()`` without waiting for it; its failure is in ``status``.
    func revalidateInBackground() {
        guard !stopped else { return }
        beginRevalidation()
    }

    /// The revalidation in flight, or a new one (held before this returns, so what starts next joins it). A
    /// retryable failure schedules a retry when something waits for one (a pending save, or an active app with no
    /// fresh answer).
    @discardableResult
    private func beginRevalidation() -> Task<TabBarDelivery, any Error> {
        if let fetchTask { return fetchTask }
        let task = Task {
            defer { fetchTask = nil }
            do {
                return try await forHeldUser { try await fetchTabBar() }
            } catch let error as TabBarClientError {
                if error.isRetryable { scheduleRecovery() }
                throw error
            }
        }
        fetchTask = task
        return task
    }

    /// One request for the held user's tab bar: `If-None-Match` with the held ETag when the held answer answers
    /// this request; a 200 is held and kept on disk, a 304 confirms the held answer (fresh from now on).
    private func fetchTabBar() async throws -> TabBarDelivery {
        let key = requestKey
        var request = request(tabsURL)
        if let etag = answers.entityTag(for: key) {
            request.setValue(etag, forHTTPHeaderField: "If-None-Match")
        }
        let answer = try await send(request, for: storage?.owner)
        // Signed out or shut down meanwhile: nothing more is kept.
        guard !stopped else { throw TabBarClientError.stopped }
        let now = Date()
        switch answer.status {
        case 200:
            let tabBar = try decodeTabBar(answer.body)
            do {
                try answers.received(tabBar, body: answer.body, etag: answer.etag, request: key, at: now)
            } catch {
                _ = record(.storage("the answer could not be kept: \(error.localizedDescription)"))
            }
        case 304 where answers.confirmed(request: key, at: now):
            break
        default:
            throw rejection(answer)
        }
        statuses.update { $0.lastError = nil }
        guard let delivery = deliver() else { throw record(.invalidAnswer("no tab bar is held")) }
        reachable()
        return delivery
    }

    /// The service answered: the backoff starts over (the retry waiting is not needed), a pending save is sent, and
    /// if the app is active the event stream is followed again and a tab bar not yet confirmed is revalidated (an
    /// event stream that connects first would otherwise leave a cached answer unconfirmed until the next version).
    func reachable() {
        schedule.answered()
        if saves.pending != nil { startSending() }
        guard isActive else { return }
        startEvents()
        if answers.held?.source != .fresh { revalidateInBackground() }
    }

    /// Retries after a retryable failure, once the backoff's wait (and any `Retry-After`) has passed: the pending
    /// save when there is one, else the tab bar when the app is active and holds no fresh answer.
    func scheduleRecovery() {
        guard !stopped, schedule.recovery == nil, !tokens.isClosed else { return }
        guard saves.pending != nil || (isActive && answers.held?.source != .fresh) else { return }
        let delay = schedule.nextRetryDelay(atLeast: remainingWait())
        schedule.recovery = Task {
            try? await Task.sleep(for: delay)
            await self.recover()
        }
    }

    private func recover() async {
        guard !Task.isCancelled, !stopped else { return }
        schedule.recovery = nil
        if saves.pending != nil {
            _ = try? await sendPendingSave()
        } else {
            _ = try? await revalidate()
        }
    }
}
