import Foundation
import MicroHTTP
import TabBarModel
import TabBarStore

/// A user's customization: the tab order and hidden tabs, and the tabs the user opens
/// (`CustomizationHandlers+DynamicTabs.swift`), all written through ``updateCustomization(_:client:user:_:)``.
struct CustomizationHandlers: Sendable {
    let catalog: Catalog
    let users: UserAccess
    let contexts: ContextReader
    let errors: ErrorResponder

    var store: any TabBarStore { catalog.store }

    /// `GET …/users/{user}/tab-order`: the stored customization, or the empty default.
    func getTabOrder(_ request: Request) throws -> Response {
        let read = try storedCustomization(request)
        if let notModified = read.validators.notModified(request) { return notModified }
        let value = read.entry?.value ?? StoredCustomization()
        let body = TabOrderBody(order: value.order, hidden: value.hidden, revision: read.revision)
        return read.validators.jsonResponse(CanonicalJSON.encode(body))
    }

    /// What a GET of the user's stored customization (the tab order, the open tabs) answers from: the entry, its
    /// revision (0 when none) and the validators of the ETag that revision has.
    func storedCustomization(
        _ request: Request
    ) throws -> (entry: CustomizationEntry?, revision: UInt64, validators: CacheValidators) {
        let client = try request.clientID()
        let user = try users.authorizedUser(request)
        _ = try catalog.requireLive(client)
        let entry = store.customization(client: client, user: user)
        let revision = entry?.revision ?? 0
        let validators = CacheValidators(
            etag: EntityTag.tabOrder(revision: revision, user: user), cacheControl: CachePolicy.privateCacheControl,
            variesByLanguage: false, variesByAuthorization: request.pathParameters["user"] == "me")
        return (entry, revision, validators)
    }

    /// `PUT …/users/{user}/tab-order`: validates against the live config and stores durably; honours `If-Match`.
    /// Takes the tab-bar GETs' context parameters, so that tabs absent for the writing build keep their stored place.
    /// The answer is deferred until the write is durable, so no worker thread waits for the group commit.
    func putTabOrder(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try users.authorizedUser(request)
        let localeQuery = try request.localeQuery()
        let context = try contexts.context(of: request)
        let live = try catalog.requireLive(client)
        guard live.config.isUserCustomizable else { throw APIError.notCustomizable(client) }
        let body = try request.jsonBody()
        let tabOrder: TabOrderRequest
        switch TabOrderRequest.decode(json: body) {
        case .success(let decoded): tabOrder = decoded
        case .failure(.malformedJSON(let detail)): throw APIError.malformed(detail)
        case .failure(.invalid(let problems)):
            throw APIError.invalidDocument("The tab order is not valid.", problems)
        }
        let acceptLanguage = request.headers["Accept-Language"]
        return try updateCustomization(request, client: client, user: user) { [self] current in
            let previous = current?.value
            let openTabs = previous?.dynamicTabs ?? []
            let plan = live.plan.including(openTabs)
            let checked: (customization: Customization, ignored: [String])
            switch live.config.check(tabOrder, plan: plan) {
            case .success(let result): checked = result
            case .failure(.notCustomizable): throw APIError.notCustomizable(client)
            case .failure(.invalid(let problems)):
                throw APIError.invalidDocument("The tab order does not fit the live config.", problems)
            }
            var customization = keepingAbsentTabs(
                checked.customization, of: previous, absentOpenTabs: plan.absentOpenTabs, live: live,
                context: context, user: user, localeQuery: localeQuery, acceptLanguage: acceptLanguage)
            customization.dynamicTabs = openTabs
            let saved = customization
            let ignored = checked.ignored
            return .save(saved) { entry in
                let body = SavedTabOrderBody(
                    order: saved.order, hidden: saved.hidden, revision: entry.revision, ignored: ignored)
                var response = Response.json(encoded: body.json)
                response.headers.add(name: "ETag", value: EntityTag.tabOrder(revision: entry.revision, user: user))
                return response
            }
        }
    }

    /// `customization` with the tabs absent for the request's context (the same query parameters as the tab-bar
    /// GETs: targeting, and what the request's build cannot open), and `absentOpenTabs` (open tabs whose template the
    /// config lacks), kept where the user's stored order had them: a build that lacks a tab does not erase its place
    /// for the builds that have it, nor a template removed for a while the place of its tabs.
    private func keepingAbsentTabs(
        _ customization: Customization, of previous: Customization?, absentOpenTabs: [String], live: LiveConfig,
        context: RequestContext, user: String, localeQuery: String?, acceptLanguage: String?
    ) -> Customization {
        guard let previous else { return customization }
        var absent = Set(absentOpenTabs)
        if let absence = catalog.absence(live, context: context) {
            absent.formUnion(absence.absentIDs)
            absent.formUnion(previous.dynamicTabs.filter { absence.absentTemplates.contains($0.template) }.map(\.id))
        }
        if !live.targeting.isEmpty {
            var context = context
            context.setLocale(
                live.resolveLocale(query: localeQuery, acceptLanguage: localeQuery == nil ? acceptLanguage : nil))
            context.userId = user
            absent.formUnion(live.targeting.evaluate(context, at: Date()).absentIDs)
        }
        guard !absent.isEmpty else { return customization }
        return customization.keeping(absent, from: previous)
    }

    /// `DELETE …/users/{user}/tab-order`: back to the default order and no hidden tabs; idempotent. The user's open
    /// tabs stay open: when there are any, or the config has templates to open them from (an open may be racing
    /// this), a stored order is emptied by a compare-and-set write; otherwise the customization is removed.
    func deleteTabOrder(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try users.authorizedUser(request)
        let live = try catalog.requireLive(client)
        let stored = store.customization(client: client, user: user)?.value
        let opens = !(live.config.tabTemplates ?? []).isEmpty || !(stored?.dynamicTabs ?? []).isEmpty
        guard opens, stored != nil else {
            _ = try store.deleteCustomization(client: client, user: user)
            return .noContent
        }
        return try updateCustomization(request, client: client, user: user) { current in
            guard let value = current?.value else { return .answer(.noContent) }
            let reset = StoredCustomization(order: [], hidden: [], dynamicTabs: value.dynamicTabs)
            guard reset != value else { return .answer(.noContent) }
            return .save(reset) { _ in .noContent }
        }
    }
}
