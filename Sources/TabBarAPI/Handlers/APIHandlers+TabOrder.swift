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
    /// Takes the tab-bar GETs' context parameters, so that tabs absent for the writing build keep their stored place.
    /// The answer is deferred until the write is durable, so no worker thread waits for the group commit.
    func putTabOrder(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try authorizedUser(request)
        let localeQuery = try request.localeQuery()
        let context = try requestContext(request.queryItems, country: countryHeader.flatMap { request.headers[$0] })
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
        let current = store.customization(client: client, user: user)
        var expectedRevision: UInt64?
        if let ifMatch = request.headers["If-Match"] {
            let revision = current?.revision ?? 0
            guard EntityTag.matchHolds(ifMatch, current: EntityTag.tabOrder(revision: revision, user: user)) else {
                throw APIError.revisionMismatch
            }
            expectedRevision = revision
        }
        let customization = keepingAbsentTabs(
            checked.customization, of: current, live: live, context: context, user: user, localeQuery: localeQuery,
            acceptLanguage: request.headers["Accept-Language"])
        let saved = StoredCustomization(order: customization.order, hidden: customization.hidden)
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

    /// `customization` with the tabs absent for the request's context (the same query parameters as the tab-bar
    /// GETs) kept where the user's stored order had them: a build that lacks a tab does not erase its place for the
    /// builds that have it.
    private func keepingAbsentTabs(
        _ customization: Customization, of current: CustomizationEntry?, live: LiveConfig, context: RequestContext,
        user: String, localeQuery: String?, acceptLanguage: String?
    ) -> Customization {
        guard !live.targeting.isEmpty, let previous = current?.value else { return customization }
        var context = context
        context.setLocale(live.resolveLocale(query: localeQuery, acceptLanguage: localeQuery == nil ? acceptLanguage : nil))
        context.userId = user
        let absent = live.targeting.evaluate(context, at: Date()).absentIDs
        guard !absent.isEmpty else { return customization }
        return customization.keeping(absent, from: Customization(order: previous.order, hidden: previous.hidden))
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
