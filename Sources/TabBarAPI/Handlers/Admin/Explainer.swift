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
    /// The registered build manifests: a context naming a registered build is explained without what it lacks.
    let builds: BuildRegistry

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
        var explanation = targeting.explain(context, at: now)
        var outcome = targeting.evaluate(context, at: now)
        var build: BuildExplanation?
        if let platform = context.platform, let appVersion = context.appVersion,
            let named = AppBuild(platform: platform, appVersion: appVersion)
        {
            let registered = builds.builds(of: client, keepingNone: false)[named]
            build = BuildExplanation(
                platform: named.platform, appVersion: named.appVersion, registered: registered != nil)
            if let registered {
                let absence = BuildAbsence(config: config, manifest: registered.manifest)
                outcome = outcome.excluding(absence)
                explanation = explanation.excluding(absence, build: named)
            }
        }
        let saved = query.user.map { SavedCustomization(store.customization(client: client, user: $0)) }
        let tabBar = config.resolve(client: client, version: version, locale: locale, saved: saved, outcome: outcome)
        return ExplainBody(
            client: client, version: version, evaluatedAt: now, context: context, build: build,
            tabs: explanation.tabs, experiments: explanation.experiments, tabBar: tabBar)
    }
}
