import Foundation
import MicroHTTP
import TabBarModel

extension APIHandlers {
    /// `GET /v1/clients/{client}/tabs`: the default tab bar for the request's context, prepared once per version,
    /// locale, targeting outcome and `Vary`.
    func defaultTabs(_ request: Request) throws -> Response {
        let live = try requireLive(request)
        let localeQuery = try request.localeQuery()
        let context = try requestContext(request.queryItems, country: countryHeader.flatMap { request.headers[$0] })
        return defaultResponse(
            live, context: context, localeQuery: localeQuery, acceptLanguage: request.headers["Accept-Language"],
            ifNoneMatch: request.headers["If-None-Match"])
    }

    /// The default tab bar's answer (a `200` or a `304`) on `live` for a checked context and `?locale=` (which wins)
    /// or else `Accept-Language`, read only when there is no query. Without targeting rules, the prepared answer;
    /// with them, the prepared answer of the request's outcome, its `max-age` cut short before the next
    /// `startsAt` / `endsAt`.
    func defaultResponse(
        _ live: LiveConfig, context: RequestContext, localeQuery: String?, acceptLanguage: @autoclosure () -> String?,
        ifNoneMatch: String?
    ) -> Response {
        let locale = live.resolveLocale(query: localeQuery, acceptLanguage: localeQuery == nil ? acceptLanguage() : nil)
        guard !live.targeting.isEmpty else {
            return live.defaultAnswer(
                locale: locale, outcome: .everything, variesByLanguage: localeQuery == nil, varyHeader: nil,
                cacheControl: publicCacheControl
            ).answer(ifNoneMatch: ifNoneMatch)
        }
        var context = context
        context.setLocale(locale)
        let now = Date()
        let outcome = live.targeting.evaluate(context, at: now)
        let answer = live.defaultAnswer(
            locale: locale, outcome: outcome, variesByLanguage: localeQuery == nil, varyHeader: countryHeader,
            cacheControl: publicCacheControl)
        guard let boundary = live.targeting.nextBoundary(after: now),
            let bounded = sharedCacheControl(until: boundary, now: now)
        else {
            return answer.answer(ifNoneMatch: ifNoneMatch)
        }
        var validators = answer.validators
        validators.cacheControl = bounded
        if validators.matches(ifNoneMatch: ifNoneMatch) { return validators.notModified }
        return validators.jsonResponse(live.encodedTabBar(locale: locale, outcome: outcome).defaultBody)
    }

    /// The default tab bar's `Cache-Control` when the next `startsAt` / `endsAt` is `boundary`: nil when the usual
    /// one ends before it (or has no lifetime), else one whose `max-age` and `stale-while-revalidate` end by then.
    func sharedCacheControl(until boundary: Date, now: Date) -> String? {
        guard cacheMaxAge > 0 else { return nil }
        let remaining = Int(boundary.timeIntervalSince(now).rounded(.down))
        guard remaining < cacheMaxAge + staleWhileRevalidate else { return nil }
        let maxAge = min(cacheMaxAge, remaining)
        guard maxAge > 0 else { return "public, no-cache" }
        return Self.sharedCacheControl(maxAge: maxAge, staleWhileRevalidate: min(staleWhileRevalidate, remaining - maxAge))
    }

    /// `GET /v1/clients/{client}/users/{user}/tabs`: the tab bar for the request's context with the user's
    /// customization merged in, put together from the pre-encoded tabs of the outcome.
    func userTabs(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try authorizedUser(request)
        let localeQuery = try request.localeQuery()
        let context = try requestContext(request.queryItems, country: countryHeader.flatMap { request.headers[$0] })
        let live = try requireLive(client)
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
        let entry = store.customization(client: client, user: user)
        return UserTabsAnswer(
            validators: CacheValidators(
                etag: EntityTag.userTabs(
                    version: live.stored.version, locale: locale, outcome: outcome.key,
                    revision: entry?.revision ?? 0, user: user),
                cacheControl: privateCacheControl, variesByLanguage: localeQuery == nil, variesByAuthorization: viaMe,
                variesByHeader: live.targeting.isEmpty ? nil : countryHeader),
            encoded: live.encodedTabBar(locale: locale, outcome: outcome),
            saved: SavedCustomization(entry))
    }

    /// The targeting context of a request's query, with the trusted country header's value; 400 naming the
    /// parameter when one is malformed.
    func requestContext(_ query: [(name: String, value: String)], country: String?) throws -> RequestContext {
        switch RequestContext.parse(query: query, trustedCountry: country) {
        case .success(let context): return context
        case .failure(let problem): throw APIError.invalidParameter(problem.parameter, problem.message)
        }
    }
}
