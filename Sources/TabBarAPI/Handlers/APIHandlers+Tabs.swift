import Foundation
import MicroHTTP
import TabBarModel

extension APIHandlers {
    /// `GET /v1/clients/{client}/tabs`: the default tab bar, prepared once per version, locale and `Vary`.
    func defaultTabs(_ request: Request) throws -> Response {
        let live = try requireLive(request)
        let answer = defaultAnswer(
            live, localeQuery: try request.localeQuery(), acceptLanguage: request.headers["Accept-Language"])
        return answer.answer(ifNoneMatch: request.headers["If-None-Match"])
    }

    /// The prepared default answer of `live` for a checked `?locale=` (which wins) or else `Accept-Language`, read
    /// only when there is no query.
    func defaultAnswer(
        _ live: LiveConfig, localeQuery: String?, acceptLanguage: @autoclosure () -> String?
    ) -> VersionCache.DefaultAnswer {
        let locale = live.resolveLocale(query: localeQuery, acceptLanguage: localeQuery == nil ? acceptLanguage() : nil)
        return live.defaultAnswer(locale: locale, variesByLanguage: localeQuery == nil, cacheControl: publicCacheControl)
    }

    /// `GET /v1/clients/{client}/users/{user}/tabs`: the tab bar with the user's customization merged in, put
    /// together from the version's pre-encoded tabs.
    func userTabs(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try authorizedUser(request)
        let localeQuery = try request.localeQuery()
        let live = try requireLive(client)
        let answer = userAnswer(
            live, client: client, user: user, localeQuery: localeQuery,
            acceptLanguage: request.headers["Accept-Language"], viaMe: request.pathParameters["user"] == "me")
        if let notModified = answer.validators.notModified(request) { return notModified }
        return answer.response
    }

    /// What `user`'s tab bar on `live` is answered with, for a checked `?locale=` (which wins) or else
    /// `Accept-Language`, read only when there is no query. The merge runs when `response` is asked for. `viaMe`:
    /// the path named the user as `me`, so the answer depends on the token (`Vary: Authorization`).
    func userAnswer(
        _ live: LiveConfig, client: String, user: String, localeQuery: String?,
        acceptLanguage: @autoclosure () -> String?, viaMe: Bool
    ) -> UserTabsAnswer {
        let locale = live.resolveLocale(query: localeQuery, acceptLanguage: localeQuery == nil ? acceptLanguage() : nil)
        let entry = store.customization(client: client, user: user)
        return UserTabsAnswer(
            validators: CacheValidators(
                etag: EntityTag.userTabs(
                    version: live.stored.version, locale: locale, revision: entry?.revision ?? 0, user: user),
                cacheControl: privateCacheControl, variesByLanguage: localeQuery == nil, variesByAuthorization: viaMe),
            encoded: live.encodedTabBar(locale: locale),
            saved: SavedCustomization(entry))
    }
}
