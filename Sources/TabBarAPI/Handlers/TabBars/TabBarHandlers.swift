import Foundation
import MicroHTTP
import TabBarModel

/// The tab bars apps read at launch, the default one and a user's, and the event stream of the client's versions.
struct TabBarHandlers: Sendable {
    let catalog: Catalog
    let users: UserAccess
    let contexts: ContextReader
    let cache: CachePolicy

    /// `GET /v1/clients/{client}/tabs`: the default tab bar for the request's context, prepared once per version,
    /// locale, targeting outcome and `Vary`.
    func defaultTabs(_ request: Request) throws -> Response {
        let live = try catalog.requireLive(request)
        let localeQuery = try request.localeQuery()
        let context = try contexts.context(of: request)
        guard
            let response = defaultResponse(
                live, context: context, localeQuery: localeQuery, acceptLanguage: request.headers["Accept-Language"],
                acceptEncoding: request.headers["Accept-Encoding"], ifNoneMatch: request.headers["If-None-Match"])
        else { throw APIError.notAcceptable }
        return response
    }

    /// The default tab bar's answer (a `200` or a `304`) on `live` for a checked context and `?locale=` (which wins)
    /// or else `Accept-Language`, read only when there is no query. Without targeting rules, the prepared answer;
    /// with them, the prepared answer of the request's outcome, its `max-age` cut short before the next
    /// `startsAt` / `endsAt`.
    func defaultResponse(
        _ live: LiveConfig, context: RequestContext, localeQuery: String?, acceptLanguage: @autoclosure () -> String?,
        acceptEncoding: String?, ifNoneMatch: String?
    ) -> Response? {
        let locale = live.resolveLocale(query: localeQuery, acceptLanguage: localeQuery == nil ? acceptLanguage() : nil)
        let now = Date()
        let outcome = defaultOutcome(live, context: context, locale: locale, at: now)
        guard !live.targeting.isEmpty else {
            return live.defaultAnswer(
                locale: locale, outcome: outcome, variesByLanguage: localeQuery == nil, varyHeader: nil,
                cacheControl: cache.publicCacheControl
            ).answer(acceptEncoding: acceptEncoding, ifNoneMatch: ifNoneMatch)
        }
        let answer = live.defaultAnswer(
            locale: locale, outcome: outcome, variesByLanguage: localeQuery == nil, varyHeader: contexts.countryHeader,
            cacheControl: cache.publicCacheControl)
        guard let boundary = live.targeting.nextBoundary(after: now),
            let bounded = cache.sharedCacheControl(until: boundary, now: now)
        else {
            return answer.answer(acceptEncoding: acceptEncoding, ifNoneMatch: ifNoneMatch)
        }
        guard let form = answer.form(acceptEncoding: acceptEncoding) else { return nil }
        var validators = form.validators
        validators.cacheControl = bounded
        if validators.matches(ifNoneMatch: ifNoneMatch) { return validators.notModified }
        return validators.jsonResponse(form.body)
    }

    /// The targeting outcome of the default tab bar on `live` for a checked context in `locale` at `now`, without what
    /// the context's build cannot open.
    func defaultOutcome(_ live: LiveConfig, context: RequestContext, locale: String, at now: Date) -> TargetingOutcome {
        let absence = catalog.absence(live, context: context)
        guard !live.targeting.isEmpty else { return Self.outcome(.everything, lacking: absence) }
        var context = context
        context.setLocale(locale)
        return Self.outcome(live.targeting.evaluate(context, at: now), lacking: absence)
    }

    /// The default tab bar on `live` for a checked context and `?locale=` (which wins) or else `Accept-Language`: what
    /// ``defaultResponse(_:context:localeQuery:acceptLanguage:acceptEncoding:ifNoneMatch:)`` answers, encoded, and its tag.
    func defaultBar(
        _ live: LiveConfig, context: RequestContext, localeQuery: String?, acceptLanguage: @autoclosure () -> String?
    ) -> (encoded: EncodedTabBar, etag: String) {
        let locale = live.resolveLocale(query: localeQuery, acceptLanguage: localeQuery == nil ? acceptLanguage() : nil)
        let outcome = defaultOutcome(live, context: context, locale: locale, at: Date())
        return (
            live.encodedTabBar(locale: locale, outcome: outcome),
            EntityTag.defaultTabs(version: live.stored.version, locale: locale, outcome: outcome.key)
        )
    }

    /// `GET /v1/clients/{client}/users/{user}/tabs`: the tab bar for the request's context with the user's
    /// customization merged in, put together from the pre-encoded tabs of the outcome.
    func userTabs(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try users.authorizedUser(request)
        let localeQuery = try request.localeQuery()
        let context = try contexts.context(of: request)
        let live = try catalog.requireLive(client)
        let answer = userAnswer(
            live, client: client, user: user, context: context, localeQuery: localeQuery,
            acceptLanguage: request.headers["Accept-Language"], viaMe: request.pathParameters["user"] == "me")
        if let notModified = answer.validators.notModified(request) { return notModified }
        return answer.response
    }

    /// What `user`'s tab bar on `live` is answered with, for a checked context and `?locale=` (which wins) or else
    /// `Accept-Language`, read only when there is no query. Targeting runs first, with `userId` set to the user;
    /// the merge runs when `response` is asked for. `viaMe`: the path named the user as `me`, so the answer depends
    /// on the token (`Vary: Authorization`).
    func userAnswer(
        _ live: LiveConfig, client: String, user: String, context: RequestContext, localeQuery: String?,
        acceptLanguage: @autoclosure () -> String?, viaMe: Bool
    ) -> UserTabsAnswer {
        let locale = live.resolveLocale(query: localeQuery, acceptLanguage: localeQuery == nil ? acceptLanguage() : nil)
        var outcome = TargetingOutcome.everything
        if !live.targeting.isEmpty {
            var context = context
            context.setLocale(locale)
            context.userId = user
            outcome = live.targeting.evaluate(context, at: Date())
        }
        outcome = Self.outcome(outcome, lacking: catalog.absence(live, context: context))
        let entry = catalog.store.customization(client: client, user: user)
        return UserTabsAnswer(
            validators: CacheValidators(
                etag: EntityTag.userTabs(
                    version: live.stored.version, locale: locale, outcome: outcome.key,
                    revision: entry?.revision ?? 0, user: user),
                cacheControl: CachePolicy.privateCacheControl, variesByLanguage: localeQuery == nil,
                variesByAuthorization: viaMe,
                variesByHeader: live.targeting.isEmpty ? nil : contexts.countryHeader),
            encoded: live.encodedTabBar(locale: locale, outcome: outcome),
            saved: SavedCustomization(entry))
    }

    /// `outcome` for a build that cannot open what `absence` names (docs/design/model.md, "Build manifests"); itself
    /// when the request names no registered build.
    static func outcome(_ outcome: TargetingOutcome, lacking absence: BuildAbsence?) -> TargetingOutcome {
        absence.map(outcome.excluding) ?? outcome
    }

    /// `GET /v1/clients/{client}/tabs/events`: a server-sent-event stream of the client's live versions.
    func tabEvents(_ request: Request) throws -> Response {
        let client = try request.clientID()
        _ = try catalog.requireLive(client)
        let lastEventID = request.headers["Last-Event-ID"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let stream = ResponseStream()
        let accepted = catalog.events.subscribe(client: client, stream: stream, lastEventID: lastEventID) {
            catalog.live(client)
        }
        guard accepted else {
            throw APIError.tooManyEventStreams
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Accel-Buffering", value: "no")
        return Response(status: 200, headers: headers, stream: stream)
    }
}
