import Foundation
import MicroHTTP
import TabBarModel

extension APIHandlers {
    /// `GET /v1/clients/{client}/tabs`: the default tab bar, prepared once per version, locale and `Vary`.
    func defaultTabs(_ request: Request) throws -> Response {
        let live = try requireLive(request)
        let answer = defaultAnswer(
            live, localeQuery: try request.localeQuery(), acceptLanguage: request.headers["Accept-Language"])
        if let notModified = answer.validators.notModified(request) { return notModified }
        return answer.response
    }

    /// `GET`/`HEAD /v1/clients/{client}/tabs` from the request head: the prepared answer ``defaultTabs(_:)`` gives,
    /// for a live client, a well-formed or absent `?locale=` and no `If-None-Match`; nil for anything else (an error,
    /// a `304`), which then takes the usual way.
    func preparedDefaultTabs(_ head: RequestHead) -> PreparedResponse? {
        guard head.header("If-None-Match") == nil, let client = head.withPath(Self.defaultTabsClient),
            let live = catalog.live(client)
        else {
            return nil
        }
        let localeQuery = head.query("locale")
        if let localeQuery, !isValidLocaleTag(localeQuery) {
            return nil
        }
        return defaultAnswer(live, localeQuery: localeQuery, acceptLanguage: head.header("Accept-Language"))
            .response.prepared
    }

    /// The prepared default answer of `live` for a checked `?locale=` (which wins) or else `Accept-Language`, read
    /// only when there is no query.
    private func defaultAnswer(
        _ live: LiveConfig, localeQuery: String?, acceptLanguage: @autoclosure () -> String?
    ) -> VersionCache.DefaultAnswer {
        let locale = live.resolveLocale(query: localeQuery, acceptLanguage: localeQuery == nil ? acceptLanguage() : nil)
        return live.defaultAnswer(locale: locale, variesByLanguage: localeQuery == nil, cacheControl: publicCacheControl)
    }

    /// The `{client}` of a path `/v1/clients/{client}/tabs`, or nil for any other path.
    private static func defaultTabsClient(_ path: UnsafeBufferPointer<UInt8>) -> String? {
        let prefix = "/v1/clients/".utf8
        let suffix = "/tabs".utf8
        guard path.count > prefix.count + suffix.count, path.starts(with: prefix),
            path.reversed().starts(with: suffix.reversed())
        else {
            return nil
        }
        let client = UnsafeBufferPointer(rebasing: path[prefix.count..<(path.count - suffix.count)])
        guard !client.contains(UInt8(ascii: "/")) else { return nil }
        return String(decoding: client, as: UTF8.self)
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
