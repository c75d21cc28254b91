import MicroHTTP
import TabBarModel

extension APIHandlers {
    /// The two tab bars answered from the request head, before a ``Request`` is built: what ``defaultTabs(_:)`` and
    /// ``userTabs(_:)`` answer (a `200` or a `304`) when the client is live, `?locale=` is absent or well-formed and
    /// the user is known without a signature check. Nil for anything else (an error, another path), which then takes
    /// the usual way through the router.
    func headAnswer(_ head: RequestHead) -> Response? {
        guard let route = head.withPath(HeadRoute.init) else {
            return nil
        }
        let localeQuery = head.query("locale")
        if let localeQuery, !isValidLocaleTag(localeQuery) {
            return nil
        }
        switch route {
        case .defaultTabs(let client):
            guard let live = catalog.live(client) else { return nil }
            return defaultAnswer(live, localeQuery: localeQuery, acceptLanguage: head.header("Accept-Language"))
                .answer(ifNoneMatch: head.header("If-None-Match"))
        case .userTabs(let client, let pathUser):
            guard let live = catalog.live(client), let user = knownUser(pathUser, head) else { return nil }
            let answer = userAnswer(
                live, client: client, user: user, localeQuery: localeQuery,
                acceptLanguage: head.header("Accept-Language"), viaMe: pathUser == "me")
            return answer.validators.notModified(ifNoneMatch: head.header("If-None-Match")) ?? answer.response
        }
    }

    /// The user `authorizedUser(_:)` would find for the `{user}` path segment, or nil when it would throw or would
    /// have to verify a token's signature first.
    private func knownUser(_ pathUser: String, _ head: RequestHead) -> String? {
        guard let userAuth else {
            return pathUser != "me" && Identifiers.isValidUser(pathUser) ? pathUser : nil
        }
        guard let subject = userAuth.cachedSubject(authorization: head.header("Authorization")),
            Identifiers.isValidUser(subject)
        else {
            return nil
        }
        return pathUser == "me" || pathUser == subject ? subject : nil
    }
}

/// The paths answered from the request head, told apart from the path's bytes.
enum HeadRoute: Equatable {
    /// `/v1/clients/{client}/tabs`
    case defaultTabs(client: String)
    /// `/v1/clients/{client}/users/{user}/tabs`
    case userTabs(client: String, user: String)

    /// The route of `path`, or nil for any other path (or an empty segment).
    init?(_ path: UnsafeBufferPointer<UInt8>) {
        let prefix = "/v1/clients/".utf8
        let suffix = "/tabs".utf8
        guard path.count > prefix.count + suffix.count, path.starts(with: prefix),
            path.reversed().starts(with: suffix.reversed())
        else {
            return nil
        }
        let middle = UnsafeBufferPointer(rebasing: path[prefix.count..<(path.count - suffix.count)])
        guard let slash = middle.firstIndex(of: UInt8(ascii: "/")) else {
            self = .defaultTabs(client: String(decoding: middle, as: UTF8.self))
            return
        }
        let users = "/users/".utf8
        let rest = middle[slash...]
        guard slash > 0, rest.count > users.count, rest.starts(with: users) else {
            return nil
        }
        let user = UnsafeBufferPointer(rebasing: rest.dropFirst(users.count))
        guard !user.contains(UInt8(ascii: "/")) else { return nil }
        self = .userTabs(
            client: String(decoding: UnsafeBufferPointer(rebasing: middle[..<slash]), as: UTF8.self),
            user: String(decoding: user, as: UTF8.self))
    }
}
