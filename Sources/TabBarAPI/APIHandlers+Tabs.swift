import Foundation
import MicroHTTP
import TabBarModel

extension APIHandlers {
    /// `GET /v1/clients/{client}/tabs`: the default tab bar, prepared once per version, locale and `Vary`.
    func defaultTabs(_ request: Request) throws -> Response {
        let live = try requireLive(request)
        let localeQuery = try request.localeQuery()
        let locale = live.resolveLocale(query: localeQuery, acceptLanguage: request.headers["Accept-Language"])
        let answer = live.defaultAnswer(
            locale: locale, variesByLanguage: localeQuery == nil, cacheControl: publicCacheControl)
        if let notModified = answer.validators.notModified(request) { return notModified }
        return answer.response
    }

    /// `GET /v1/clients/{client}/users/{user}/tabs`: the tab bar with the user's customization merged in, put
    /// together from the version's pre-encoded tabs.
    func userTabs(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try authorizedUser(request)
        let localeQuery = try request.localeQuery()
        let live = try requireLive(client)
        let locale = live.resolveLocale(query: localeQuery, acceptLanguage: request.headers["Accept-Language"])
        let entry = store.customization(client: client, user: user)
        let validators = CacheValidators(
            etag: EntityTag.userTabs(version: live.stored.version, locale: locale, revision: entry?.revision ?? 0),
            cacheControl: privateCacheControl, variesByLanguage: localeQuery == nil)
        if let notModified = validators.notModified(request) { return notModified }
        let body = live.encodedTabBar(locale: locale).userBody(SavedCustomization(entry))
        return validators.decorate(.json(encoded: body))
    }
}
