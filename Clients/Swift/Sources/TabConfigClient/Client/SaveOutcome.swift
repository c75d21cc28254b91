/// What became of a save (``TabBarClient/save(_:baseRevision:)``, ``TabBarClient/sendPendingSave(timeout:)``).
public enum SaveOutcome: Sendable, Hashable {
    /// The service stored it: the user's customization now has this revision.
    case stored(revision: Int)
    /// Kept on disk and sent until the service stores it: when it is reachable again, after the backoff, at the next
    /// launch; ``TabBarClient/saveOutcomes`` reports what becomes of it. `lastError` says why it is not stored yet
    /// (nil: the wait ran out while it was being sent).
    case pending(lastError: TabBarClientError?)
    /// The service refused it as it is (400, 409, 422, with the service's problem): it was dropped and the tab bar
    /// shows what the service holds.
    case refused(Problem)

    /// The outcome of a send that ended with `result`.
    init(_ result: Result<SavedTabOrder?, any Error>, storedRevision: Int) {
        switch result {
        case .success(let saved):
            self = .stored(revision: saved?.revision ?? storedRevision)
        case .failure(TabBarClientError.rejected(let problem)):
            self = .refused(problem)
        case .failure(let error as TabBarClientError):
            self = .pending(lastError: error)
        case .failure:
            self = .pending(lastError: nil)
        }
    }
}
