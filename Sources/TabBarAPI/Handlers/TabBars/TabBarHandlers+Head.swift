import MicroHTTP
import TabBarModel

/// The two tab bars answered from the request head, without the router: the reads every app launch makes.
extension TabBarHandlers {
    /// `GET /v1/clients/{client}/tabs` from the request head: what ``defaultTabs(_:)`` answers (a `200` or a `304`)
    /// when the client is live and `?locale=` and the context parameters are absent or well-formed; nil for
    /// anything else (an error, a `406`), which then takes the usual way through the router.
    func defaultTabsHead(_ head: RequestHead, _ parameters: PathParameters) -> Response? {
        let localeQuery = head.query("locale")
        let ifNoneMatch = head.header("If-None-Match")
        guard Self.isUsable(localeQuery), let live = catalog.live(parameters["client"] ?? ""),
            isCurrent(client: live.stored.client, user: nil, ifNoneMatch: ifNoneMatch),
            let context = contexts.context(of: head, localeGiven: localeQuery != nil)
        else {
            return nil
        }
        return defaultResponse(
            live, context: context, localeQuery: localeQuery, acceptLanguage: head.header("Accept-Language"),
            acceptEncoding: head.header("Accept-Encoding"), ifNoneMatch: ifNoneMatch)
    }

    /// `GET /v1/clients/{client}/users/{user}/tabs` from the request head: what ``userTabs(_:)`` answers when the
    /// client is live, `?locale=` and the context are absent or well-formed and
    /// ``UserAccess/user(pathUser:authorization:verifying:)`` knows the user without a signature check; nil for anything else.
    func userTabsHead(_ head: RequestHead, _ parameters: PathParameters) -> Response? {
        let client = parameters["client"] ?? ""
        let pathUser = parameters["user"] ?? ""
        let localeQuery = head.query("locale")
        let ifNoneMatch = head.header("If-None-Match")
        guard Self.isUsable(localeQuery), let live = catalog.live(client),
            let user = try? users.user(pathUser: pathUser, authorization: head.header("Authorization"), verifying: false),
            isCurrent(client: client, user: user, ifNoneMatch: ifNoneMatch),
            let context = contexts.context(of: head, localeGiven: localeQuery != nil)
        else {
            return nil
        }
        let answer = userAnswer(
            live, client: client, user: user, context: context, localeQuery: localeQuery,
            acceptLanguage: head.header("Accept-Language"), viaMe: pathUser == "me")
        return answer.validators.notModified(ifNoneMatch: ifNoneMatch) ?? answer.response
    }

    /// Whether this replica holds everything the head's `If-None-Match` names for `user` (nil: the default tab
    /// bar); else the request takes the usual way, which reads through first.
    private func isCurrent(client: String, user: String?, ifNoneMatch: String?) -> Bool {
        catalog.readThrough(client: client, version: nil, ifNoneMatch: ifNoneMatch, ifMatch: nil, user: user) == nil
    }


    /// Whether a head's `?locale=` is absent or a well-formed tag: a malformed one is a 400, left to the router.
    private static func isUsable(_ localeQuery: String?) -> Bool {
        localeQuery.map(isValidLocaleTag) ?? true
    }
}
