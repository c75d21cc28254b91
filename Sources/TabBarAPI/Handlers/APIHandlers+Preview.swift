import MicroHTTP
import TabBarModel

extension APIHandlers {
    /// `POST /v1/clients/{client}/config/preview?<context>[&user=…]` (admin): a document not published, validated as
    /// a publish validates it (the same 400 and 422) and resolved for the context as `…/tabs/explain` resolves the
    /// live one, with the user's saved order merged in when `user` is given. Nothing is stored. The answer's
    /// `version` is the one a publish made now would get. The admin console's live preview.
    func previewConfig(_ request: Request) throws -> Response {
        try requireScope(.read, request)
        let client = try request.clientID()
        let query = try explainQuery(request)
        let config = try publishableConfig(request, detail: "The config document is not valid.")
        let version = (catalog.live(client)?.stored.version ?? 0) + 1
        return .json(
            explain(
                config, targeting: TargetingPlan(config: config), locales: LocaleIndex(config.availableLocales),
                client: client, version: version, query: query))
    }
}
