import Foundation
import MicroHTTP
import TabBarModel

extension APIHandlers {
    /// `GET /v1/clients/{client}/tabs`: the default tab bar, encoded once per version and locale.
    func defaultTabs(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let locale = try request.localeQuery()
        let live = try requireLive(client)
        let resolved = live.config.resolveLocale(query: locale, acceptLanguage: request.headers["Accept-Language"])
        var response = Response.json(encoded: catalog.encodedDefault(live, locale: resolved.locale))
        if resolved.fromHeader || locale == nil {
            response.headers.add(name: "Vary", value: "Accept-Language")
        }
        return response
    }

    /// `GET /v1/clients/{client}/users/{user}/tabs`: the tab bar with the user's customization merged in.
    func userTabs(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try request.userID()
        let locale = try request.localeQuery()
        let live = try requireLive(client)
        let resolved = live.config.resolveLocale(query: locale, acceptLanguage: request.headers["Accept-Language"])
        let saved = savedCustomization(client: client, user: user)
        let bar = live.config.resolve(
            client: client, version: live.stored.version, locale: resolved.locale, saved: saved)
        var response = Response.json(bar)
        if resolved.fromHeader || locale == nil {
            response.headers.add(name: "Vary", value: "Accept-Language")
        }
        return response
    }

    /// What the store holds for the user, in the model's terms.
    func savedCustomization(client: String, user: String) -> SavedCustomization {
        guard let entry = store.customization(client: client, user: user) else { return .none }
        guard let value = entry.value else { return .undecodable(revision: entry.revision) }
        return .saved(Customization(order: value.order, hidden: value.hidden), revision: entry.revision)
    }
}
