import Foundation
import MicroHTTP
import TabBarModel
import TabBarStore

extension APIHandlers {
    /// `GET …/users/{user}/tab-order`: the stored customization, or the empty default.
    func getTabOrder(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try authorizedUser(request)
        _ = try requireLive(client)
        let entry = store.customization(client: client, user: user)
        let revision = entry?.revision ?? 0
        let validators = CacheValidators(
            etag: EntityTag.tabOrder(revision: revision, user: user), cacheControl: privateCacheControl,
            variesByLanguage: false, variesByAuthorization: request.pathParameters["user"] == "me")
        if let notModified = validators.notModified(request) { return notModified }
        let value = entry?.value ?? StoredCustomization(order: [], hidden: [])
        let body = TabOrderBody(order: value.order, hidden: value.hidden, revision: revision)
        return validators.jsonResponse(CanonicalJSON.encode(body))
    }

    /// `PUT …/users/{user}/tab-order`: validates against the live config and stores durably; honours `If-Match`.
    /// The answer is deferred until the write is durable, so no worker thread waits for the group commit.
    func putTabOrder(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try authorizedUser(request)
        let live = try requireLive(client)
        guard live.config.isUserCustomizable else { throw APIError.notCustomizable(client) }
        let body = try request.jsonBody()
        let tabOrder: TabOrderRequest
        switch TabOrderRequest.decode(json: body) {
        case .success(let decoded): tabOrder = decoded
        case .failure(.malformedJSON(let detail)): throw APIError.malformed(detail)
        case .failure(.invalid(let problems)):
            throw APIError.invalidDocument("The tab order is not valid.", problems)
        }
        let checked: (customization: Customization, ignored: [String])
        switch live.config.check(tabOrder, plan: live.plan) {
        case .success(let result): checked = result
        case .failure(.notCustomizable): throw APIError.notCustomizable(client)
        case .failure(.invalid(let problems)):
            throw APIError.invalidDocument("The tab order does not fit the live config.", problems)
        }
        var expectedRevision: UInt64?
        if let ifMatch = request.headers["If-Match"] {
            let current = store.customization(client: client, user: user)?.revision ?? 0
            guard EntityTag.matchHolds(ifMatch, current: EntityTag.tabOrder(revision: current, user: user)) else {
                throw APIError.revisionMismatch
            }
            expectedRevision = current
        }
        let saved = StoredCustomization(order: checked.customization.order, hidden: checked.customization.hidden)
        let ignored = checked.ignored
        let deferred = DeferredResponse()
        store.saveCustomization(client: client, user: user, saved, expectedRevision: expectedRevision) { result in
            deferred.complete { [self] in
                switch result {
                case .success(let entry):
                    let body = SavedTabOrderBody(
                        order: saved.order, hidden: saved.hidden, revision: entry.revision, ignored: ignored)
                    var response = Response.json(encoded: body.json)
                    response.headers.add(name: "ETag", value: EntityTag.tabOrder(revision: entry.revision, user: user))
                    return response
                case .failure(let error):
                    return response(for: error, request: request)
                }
            }
        }
        return Response(deferred: deferred)
    }

    /// `DELETE …/users/{user}/tab-order`: back to the default order; idempotent.
    func deleteTabOrder(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try authorizedUser(request)
        _ = try requireLive(client)
        _ = try store.deleteCustomization(client: client, user: user)
        return .noContent
    }
}
