import Foundation
import MicroHTTP
import TabBarModel

extension APIHandlers {
    /// `GET /v1/clients/{client}/tabs/explain?<context>[&user=…]` (admin): for the context (and the user, whose
    /// saved order is then merged as their tab bar would be), whether each tab and experiment applies, the first
    /// rule that failed with its pointer, and the resulting tab bar.
    func explainTabs(_ request: Request) throws -> Response {
        try requireScope(.read, request)
        let client = try request.clientID()
        let localeQuery = try request.localeQuery()
        var context = try requestContext(request.queryItems, country: countryHeader.flatMap { request.headers[$0] })
        let user = try request.query("user").map(Request.userID)
        let live = try requireLive(client)
        let locale = live.resolveLocale(
            query: localeQuery, acceptLanguage: localeQuery == nil ? request.headers["Accept-Language"] : nil)
        context.setLocale(locale)
        context.userId = user
        let now = Date()
        let explanation = live.targeting.explain(context, at: now)
        let outcome = live.targeting.evaluate(context, at: now)
        let saved = user.map { SavedCustomization(store.customization(client: client, user: $0)) }
        let tabBar = live.config.resolve(
            client: client, version: live.stored.version, locale: locale, saved: saved, outcome: outcome)
        let body = ExplainBody(
            client: client, version: live.stored.version, evaluatedAt: now, context: context,
            tabs: explanation.tabs, experiments: explanation.experiments, tabBar: tabBar)
        return .json(body)
    }
}
