import Dispatch
import MicroHTTP
import TabBarModel
import TabBarStore

/// Every write of a user's customization (tab order, reset, opening and closing tabs) is a compare-and-set on the
/// user's revision, so that none undoes another made meanwhile: a tab order saved from an old read would otherwise
/// close a tab another device opened (docs/design/model.md, "Tabs a user opens").
extension CustomizationHandlers {
    /// What an update does with the user's current customization.
    enum CustomizationChange: Sendable {
        /// Store the value; the response is made from the entry stored.
        case save(StoredCustomization, answer: @Sendable (CustomizationEntry) -> Response)
        /// Answer without writing.
        case answer(Response)
    }

    /// How many times an update without `If-Match` is tried on the newest state before it answers 409.
    static let updateAttempts = 8

    /// Applies `change` to the user's stored customization, given the current entry, and stores what it returns
    /// only if no other write came first. With `If-Match`, the request names the revision it was based on: a stale
    /// one answers 412 (after the problems `change` finds in the request itself) and nothing is retried. Without, a
    /// write that lost the race is retried on the newest state (read through a shared store, after a pause that
    /// doubles from 1 ms), `updateAttempts` times in all. `change` throws what the request answers (422, 409, ...).
    /// The save's answer is deferred until it is durable.
    func updateCustomization(
        _ request: Request, client: String, user: String,
        _ change: @escaping @Sendable (CustomizationEntry?) throws -> CustomizationChange
    ) throws -> Response {
        let current = store.customization(client: client, user: user)
        let revision = current?.revision ?? 0
        // The request's own problems first (422, 409): they do not depend on the state it names.
        let decision = try change(current)
        var retries = true
        if let ifMatch = request.headers["If-Match"] {
            guard EntityTag.matchHolds(ifMatch, current: EntityTag.tabOrder(revision: revision, user: user)) else {
                throw APIError.revisionMismatch
            }
            retries = false
        }
        switch decision {
        case .answer(let response):
            return response
        case .save(let value, let answer):
            let update = CustomizationUpdate(
                store: store, errors: errors, request: request, client: client, user: user, retries: retries, change: change,
                deferred: DeferredResponse())
            update.save(value, expectedRevision: revision, answer: answer, attempt: 1)
            return Response(deferred: update.deferred)
        }
    }
}

/// One update in flight: its saves, and its retries after a lost race.
private struct CustomizationUpdate: Sendable {
    let store: any TabBarStore
    let errors: ErrorResponder
    let request: Request
    let client: String
    let user: String
    let retries: Bool
    let change: @Sendable (CustomizationEntry?) throws -> CustomizationHandlers.CustomizationChange
    let deferred: DeferredResponse

    func save(
        _ value: StoredCustomization, expectedRevision: UInt64,
        answer: @escaping @Sendable (CustomizationEntry) -> Response, attempt: Int
    ) {
        store.saveCustomization(client: client, user: user, value, expectedRevision: expectedRevision) {
            result in
            switch result {
            case .success(let entry):
                deferred.complete { answer(entry) }
            case .failure(let error as StoreError) where error == .revisionMismatch && retries:
                guard attempt < CustomizationHandlers.updateAttempts else {
                    return deferred.complete(.problem(.concurrentUpdate, for: request))
                }
                retry(after: attempt)
            case .failure(let error):
                deferred.complete { errors.response(for: error, request: request) }
            }
        }
    }

    /// Reads the newest state (through, on a shared store) and applies the change to it again.
    private func retry(after attempt: Int) {
        let pause = DispatchTimeInterval.milliseconds(1 << (attempt - 1))
        DispatchQueue.global().asyncAfter(deadline: .now() + pause) {
            store.readThrough(client: client, user: user) { _ in
                let current = store.customization(client: client, user: user)
                do {
                    switch try change(current) {
                    case .answer(let response):
                        deferred.complete(response)
                    case .save(let value, let answer):
                        save(value, expectedRevision: current?.revision ?? 0, answer: answer, attempt: attempt + 1)
                    }
                } catch {
                    deferred.complete { errors.response(for: error, request: request) }
                }
            }
        }
    }
}
