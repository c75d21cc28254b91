import Synchronization

/// The deferred responses whose connections are suspended waiting for them, so that shutdown can answer them.
final class DeferredRegistry: Sendable {
    private struct Contents {
        var isStopping = false
        var pending: [ObjectIdentifier: DeferredResponse] = [:]
    }

    private let contents = Mutex(Contents())

    /// Records a pending response; false (without recording it) once ``completeAll(with:)`` has run.
    func add(_ deferred: DeferredResponse) -> Bool {
        contents.withLock { contents in
            guard !contents.isStopping else {
                return false
            }
            contents.pending[ObjectIdentifier(deferred)] = deferred
            return true
        }
    }

    /// Forgets a response that was sent or whose request ended.
    func remove(_ deferred: DeferredResponse) {
        _ = contents.withLock { $0.pending.removeValue(forKey: ObjectIdentifier(deferred)) }
    }

    /// Completes every pending response with `response` (resuming their connections), and refuses later ones.
    func completeAll(with response: Response) {
        let pending = contents.withLock { contents in
            contents.isStopping = true
            return Array(contents.pending.values)
        }
        for deferred in pending {
            deferred.complete(response)
        }
    }
}
