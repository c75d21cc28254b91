import Foundation
import MicroHTTP
import TabBarModel

extension APIHandlers {
    /// What an explain or a preview evaluates: the request's context, its `?locale=` or else `Accept-Language`, and
    /// the optional `?user=`.
    struct ExplainQuery {
        var context: RequestContext
        var localeQuery: String?
        var acceptLanguage: String?
        var user: String?
    }

    /// `GET /v1/clients/{client}/tabs/explain?<context>[&user=…]` (admin): for the context (and the user, whose
    /// saved order is then merged as their tab bar would be), whether each tab and experiment applies, the first
    /// rule that failed with its pointer, and the resulting tab bar.
    func explainTabs(_ request: Request) throws -> Response {
        try requireScope(.read, request)
        let client = try request.clientID()
        let query = try explainQuery(request)
        let live = try requireLive(client)
        return .json(
            explain(
                live.config, targeting: live.targeting, locales: live.locales, client: client,
                version: live.stored.version, query: query))
    }

    /// The query of an explain or a preview, checked: 400 naming a malformed parameter.
    func explainQuery(_ request: Request) throws -> ExplainQuery {
        let localeQuery = try request.localeQuery()
        let context = try requestContext(request.queryItems, country: countryHeader.flatMap { request.headers[$0] })
        let user = try request.query("user").map(Request.userID)
        return ExplainQuery(
            context: context, localeQuery: localeQuery,
            acceptLanguage: localeQuery == nil ? request.headers["Accept-Language"] : nil, user: user)
    }

    /// `config` (as `version` of `client`, its `targeting` and `locales` compiled) evaluated now for `query`: each
    /// tab's and experiment's outcome and the tab bar, the user's when the query names one.
    func explain(
        _ config: TabBarConfig, targeting: TargetingPlan, locales: LocaleIndex, client: String, version: Int,
        query: ExplainQuery
    ) -> ExplainBody {
        let locale = config.resolveLocale(
            query: query.localeQuery, acceptLanguage: query.acceptLanguage, available: locales
        ).locale
        var context = query.context
        context.setLocale(locale)
        context.userId = query.user
        let now = Date()
        let explanation = targeting.explain(context, at: now)
        let outcome = targeting.evaluate(context, at: now)
        let saved = query.user.map { SavedCustomization(store.customization(client: client, user: $0)) }
        let tabBar = config.resolve(client: client, version: version, locale: locale, saved: saved, outcome: outcome)
        return ExplainBody(
            client: client, version: version, evaluatedAt: now, context: context, tabs: explanation.tabs,
            experiments: explanation.experiments, tabBar: tabBar)
    }
}
