import Foundation

extension TabBarClient {
    /// Saves the user's edit of their tab order and hidden tabs: writes it to the pending-save file (atomically,
    /// before any request), delivers the tab bar with the edit applied, sends it, and returns what became of it:
    /// stored, refused, or pending (kept on disk and sent later, as ``saveOutcomes`` then reports). A second edit
    /// while one is pending is composed with it into one pending edit. For ``User/me`` the edit is the user's
    /// whom the token names now. Throws only when the edit could not be kept (no user, for `.me` a token that names
    /// no one, the storage directory not writable, the client stopped).
    ///
    /// - Parameters:
    ///   - edit: what the user saw and what they left.
    ///   - baseRevision: the revision of the user's customization `edit.base` was read at; nil takes the delivered
    ///     tab bar's ``TabBar/Customization/revision``, or 0 when it has none (a first launch with only the bundled
    ///     default). A base the service's stored order is past makes the edit be made again on that order, as after
    ///     another device's save: an edit is never refused for want of a revision.
    @discardableResult
    public func save(_ edit: TabOrderEdit, baseRevision: Int? = nil) async throws -> SaveOutcome {
        try await prepare(identifying: true)
        guard configuration.user != nil, storage != nil else { throw record(.noUser) }
        let revision = baseRevision ?? answers.held?.tabBar.customization?.revision ?? 0
        guard try keeping({ try saves.enqueue(edit, baseRevision: revision) }) else {
            return .stored(revision: storedRevision)
        }
        deliver()
        return await outcome(of: sendTask ?? beginSending(), timeout: nil)
    }

    /// Sends the pending save now (or joins the sending in flight) and returns what became of it, waiting at most
    /// `timeout` (nil: until the send ends); nil when nothing is pending. A save still being sent when the wait runs
    /// out is ``SaveOutcome/pending(lastError:)`` and goes on in the background.
    @discardableResult
    public func sendPendingSave(timeout: Duration? = nil) async throws -> SaveOutcome? {
        try await prepare()
        if let sendTask { return await outcome(of: sendTask, timeout: timeout) }
        guard saves.pending != nil else { return nil }
        return await outcome(of: beginSending(), timeout: timeout)
    }

    /// What became of pending saves sent from now on, each once it is stored or refused: those an app made and
    /// left pending, those of an earlier launch. The stream ends when the client is shut down.
    public nonisolated var saveOutcomes: AsyncStream<SaveOutcome> { outcomes.stream() }

    /// Sends the pending save without waiting for it, unless nothing is pending or a send is in flight.
    func startSending() {
        guard !stopped, sendTask == nil, saves.pending != nil else { return }
        beginSending()
    }

    /// The revision of the user's stored customization as last known.
    private var storedRevision: Int {
        saves.storedOrder?.order.revision ?? answers.held?.tabBar.customization?.revision ?? 0
    }

    /// What `send` ends with, or pending when `timeout` runs out first.
    private func outcome(of send: Task<SavedTabOrder?, any Error>, timeout: Duration?) async -> SaveOutcome {
        guard let result = await Self.result(of: send, timeout: timeout) else {
            return .pending(lastError: nil)
        }
        return SaveOutcome(result, storedRevision: storedRevision)
    }

    /// `task`'s result, or nil when `timeout` runs out first; the task goes on either way.
    private static func result<Success: Sendable>(
        of task: Task<Success, any Error>, timeout: Duration?
    ) async -> Result<Success, any Error>? {
        guard let timeout else { return await task.result }
        let first = Locked<CheckedContinuation<Result<Success, any Error>?, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            first.withLock { $0 = continuation }
            Task {
                let result = await task.result
                first.withLock { $0.take() }?.resume(returning: result)
            }
            Task {
                try? await Task.sleep(for: timeout)
                first.withLock { $0.take() }?.resume(returning: nil)
            }
        }
    }

    /// A new send of the pending save, held before this returns so that what starts next joins it. A retryable
    /// failure schedules a retry; a stored or refused save is reported on ``saveOutcomes``.
    @discardableResult
    private func beginSending() -> Task<SavedTabOrder?, any Error> {
        let task = Task {
            defer { sendTask = nil }
            do {
                let saved = try await sendPending()
                if let saved { outcomes.publish(.stored(revision: saved.revision)) }
                return saved
            } catch let error as TabBarClientError {
                if error.isRetryable { scheduleRecovery() }
                if case .rejected(let problem) = error { outcomes.publish(.refused(problem)) }
                throw error
            }
        }
        sendTask = task
        return task
    }

    /// Sends pending saves until none is left, each with a token of its owner (when the token comes to name another
    /// user, that user's pending save is sent instead). See ``sendHeldPending()`` for one attempt; up to
    /// ``RetryPolicy/maxSaveAttempts`` attempts of one save.
    private func sendPending() async throws -> SavedTabOrder? {
        var attempts = 0
        var lastSaved: SavedTabOrder?
        while saves.pending != nil {
            guard attempts < configuration.retryPolicy.maxSaveAttempts else {
                throw record(.conflict(attempts: attempts))
            }
            attempts += 1
            if let saved = try await forHeldUser({ try await sendHeldPending() }) {
                lastSaved = saved
                attempts = 0
            }
        }
        if lastSaved != nil {
            if let fetchTask { _ = try? await fetchTask.value }
            _ = try? await revalidate()
        }
        return lastSaved
    }

    /// One attempt at the held user's pending save: reads the stored order (its ETag and revision); when its
    /// revision is the save's base, writes the edited state with `If-Match` and returns what was stored; when it is
    /// not (or the write meets a 412), reads the user's tab bar again, makes the edit again on it and returns nil.
    private func sendHeldPending() async throws -> SavedTabOrder? {
        guard let current = saves.pending else { return nil }
        let stored = try await readTabOrder(for: current.owner)
        if stored.order.revision == current.baseRevision {
            await beforeTabOrderWrite?()
            if let saved = try await writeTabOrder(current, ifMatch: stored.etag) {
                try markStored(current, as: saved)
                return saved
            }
        }
        try await rebasePending()
        return nil
    }

    /// `GET …/tab-order` for `owner`'s save, revalidating the one held.
    private func readTabOrder(for owner: String) async throws -> (order: TabOrder, etag: String?) {
        guard let url = tabOrderURL(withContext: false) else { throw record(.noUser) }
        var request = request(url)
        if let etag = saves.storedOrder?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let answer = try await send(request, for: owner)
        switch answer.status {
        case 200:
            do {
                let order = try JSONDecoder().decode(TabOrder.self, from: answer.body)
                saves.storedOrder = (order, answer.etag)
                return (order, answer.etag)
            } catch {
                throw record(.invalidAnswer("the tab order does not decode: \(error)"))
            }
        case 304:
            if let storedOrder = saves.storedOrder { return storedOrder }
            throw rejection(answer)
        default:
            throw rejection(answer)
        }
    }

    /// `PUT …/tab-order` of the save's edited state with `If-Match` and the context's parameters; the stored order,
    /// or nil on 412. A 400, 409 or 422 drops the save.
    private func writeTabOrder(_ save: PendingSave, ifMatch etag: String?) async throws -> SavedTabOrder? {
        guard let url = tabOrderURL(withContext: true) else { throw record(.noUser) }
        guard let etag else { throw record(.invalidAnswer("the tab order came without an ETag")) }
        var request = request(url, method: "PUT")
        request.setValue(etag, forHTTPHeaderField: "If-Match")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(save.edit.edited)
        let answer = try await send(request, for: save.owner)
        switch answer.status {
        case 200, 201:
            do {
                let saved = try JSONDecoder().decode(SavedTabOrder.self, from: answer.body)
                let order = TabOrder(order: saved.order, hidden: saved.hidden, revision: saved.revision)
                saves.storedOrder = (order, answer.etag)
                return saved
            } catch {
                throw record(.invalidAnswer("the saved tab order does not decode: \(error)"))
            }
        case 412:
            saves.storedOrder = nil
            return nil
        case 400, 409, 422:
            let error = rejection(answer)
            try removing(save)
            throw error
        default:
            throw rejection(answer)
        }
    }

    /// The service stored `save`: the file goes unless a newer edit replaced it meanwhile (that one is sent next,
    /// made again on the stored order), and the held tab bar shows the stored state until the service's answer
    /// replaces it.
    private func markStored(_ save: PendingSave, as saved: SavedTabOrder) throws {
        answers.showStored(saved)
        try removing(save)
        deliver()
    }

    /// Reads the user's tab bar again and makes the pending edit again on it, with its revision as the new base.
    private func rebasePending() async throws {
        _ = try await revalidate()
        guard let latest = answers.held?.tabBar, let revision = latest.customization?.revision else {
            throw record(.invalidAnswer("the user's tab bar has no customization"))
        }
        try keeping { try saves.rebase(on: TabOrderState(latest), revision: revision) }
        deliver()
    }

    /// Runs `change` of the save queue, which writes the pending-save file; a failed write is recorded and thrown.
    private func keeping<Result>(_ change: () throws -> Result) throws -> Result {
        guard !stopped else { throw TabBarClientError.stopped }
        do {
            return try change()
        } catch let error as TabBarClientError {
            throw record(error)
        } catch {
            throw record(.storage("the pending save could not be written: \(error.localizedDescription)"))
        }
    }

    /// Removes `save` from disk and memory, unless a newer edit replaced it meanwhile.
    private func removing(_ save: PendingSave) throws {
        do {
            if try saves.remove(save) { deliver() }
        } catch {
            throw record(.storage("the pending save could not be removed: \(error.localizedDescription)"))
        }
    }
}
