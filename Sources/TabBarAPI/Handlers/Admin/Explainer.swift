import Foundation
import MicroHTTP
import TabBarModel
import TabBarStore

/// What an explain or a preview evaluates: the request's context, its `?locale=` or else `Accept-Language`, and the
/// optional `?user=`.
struct ExplainQuery {
    var context: RequestContext
    var localeQuery: String?
    var acceptLanguage: String?
    var user: String?
}

/// Evaluates a config for a context, tab by tab: `…/tabs/explain` on the live config, a preview on a document not
/// published.
struct Explainer: Sendable {
    let store: any TabBarStore
    let contexts: ContextReader

    /// The query of an explain or a preview, checked: 400 naming a malformed parameter.
    func query(_ request: Request) throws -> ExplainQuery {
        let localeQuery = try request.localeQuery()
        let context = try contexts.context(of: request)
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
