import Foundation
import MicroHTTP
import TabBarModel

/// OpenFeature remote evaluation (OFREP, docs/openfeature.md): the tab bar a context gets, read as flags. One
/// resolution per request, by the tab-bar GETs' own code (``TabBarHandlers``); the flags are read off its result.
struct OFREPHandlers: Sendable {
    let catalog: Catalog
    let tabBars: TabBarHandlers
    let users: UserAccess
    let contexts: ContextReader

    /// `POST /ofrep/v1/evaluate/flags`: every flag of the context's client, with a strong tag of the outcome and a
    /// `304` to `If-None-Match` naming it (as OFREP asks), answered before the merge; `If-None-Match: *` is a `412`, as
    /// RFC 9110 §13.1.2 says for a method other than GET and HEAD. The answer of each tag is kept with the version
    /// (``VersionCache``): a provider that polls without `If-None-Match` is answered from memory until the outcome or
    /// the user's revision changes. An unknown client is an invalid context.
    func evaluateFlags(_ request: Request) throws -> Response {
        do {
            let resolution = try resolve(request) { client in
                .invalidContext("'client': there is no client '\(client)'")
            }
            let validators = CacheValidators(
                etag: EntityTag.flags(tabBar: resolution.etag, forBuild: resolution.absence != nil),
                cacheControl: CachePolicy.privateCacheControl,
                variesByLanguage: !resolution.localeGiven,
                variesByHeader: resolution.live.targeting.isEmpty ? nil : contexts.countryHeader)
            if let ifNoneMatch = request.headers["If-None-Match"], EntityTag.list(ifNoneMatch).contains("*") {
                throw APIError.anyRepresentationExists
            }
            if let notModified = validators.notModified(request) { return notModified }
            let body = resolution.live.cache.flagAnswer(tag: validators.etag) {
                OFREPFlags(bar: resolution.bar()).bulkBody()
            }
            return validators.jsonResponse(body)
        } catch let error as OFREPError {
            return error.response(key: nil)
        }
    }

    /// `POST /ofrep/v1/evaluate/flags/{key}`: one flag; `FLAG_NOT_FOUND` for a key the client lacks and for every key
    /// of an unknown client.
    func evaluateFlag(_ request: Request) throws -> Response {
        let key = request.pathParameters["key"] ?? ""
        do {
            let resolution = try resolve(request) { client in .flagNotFound(key, client: client) }
            let flags = OFREPFlags(bar: resolution.bar())
            guard let flag = flags.flag(key) else {
                throw OFREPError.flagNotFound(key, client: resolution.live.stored.client)
            }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
            headers.add(name: "Cache-Control", value: CachePolicy.privateCacheControl)
            return Response(status: 200, headers: headers, body: flags.body(of: flag))
        } catch let error as OFREPError {
            return error.response(key: key)
        }
    }

    /// The context of an evaluation's body, for a replica's read-through (``TabConfigResponder/Caller``); nil for a
    /// body that is not a valid context, which the handler then refuses.
    static func context(_ request: Request) -> EvaluationContext? {
        guard case .success(let evaluation) = EvaluationContext.decode(json: request.body) else { return nil }
        return evaluation
    }

    /// The tab bar a context gets, resolved as the tab-bar GETs resolve it, before the merge: enough for the tag.
    private struct Resolution {
        let live: LiveConfig
        let encoded: EncodedTabBar
        /// The tab bar's tag.
        let etag: String
        /// What the user saved; nil for the default tab bar.
        let saved: SavedCustomization?
        let absence: BuildAbsence?
        /// Whether the context named the locale.
        let localeGiven: Bool

        /// The tab bar itself, merged with what the user saved.
        func bar() -> OFREPFlags.ResolvedBar {
            guard let saved else {
                return OFREPFlags.ResolvedBar(
                    live: live, encoded: encoded, body: encoded.defaultBody, etag: etag,
                    tabIDs: encoded.defaultTabIDs, isUsers: false, absence: absence)
            }
            let (body, tabIDs) = encoded.userBar(saved)
            return OFREPFlags.ResolvedBar(
                live: live, encoded: encoded, body: body, etag: etag, tabIDs: tabIDs, isUsers: true, absence: absence)
        }
    }

    /// The tab bar the request's context gets: the user's when the context has a `targetingKey`, else the default
    /// one. Throws an ``OFREPError`` for the body and the context, `unknownClient`'s for a client with no live config,
    /// and the user endpoints' 401 and 403.
    private func resolve(_ request: Request, unknownClient: (String) -> OFREPError) throws -> Resolution {
        guard !request.body.isEmpty else { throw OFREPError.parse("the body is empty; {\"context\": {...}} is expected") }
        let json = try request.jsonBody()
        let evaluation: EvaluationContext
        switch EvaluationContext.decode(json: json, trustedCountry: contexts.countryHeader.flatMap { request.headers[$0] }) {
        case .success(let decoded): evaluation = decoded
        case .failure(.malformedJSON(let detail)): throw OFREPError.parse("the body is not JSON: \(detail)")
        case .failure(.invalid(let detail)): throw OFREPError.invalidContext(detail)
        }
        guard let client = evaluation.client else {
            throw OFREPError.invalidContext("'client' is required: the id of the client whose tab bar is evaluated")
        }
        let user = try self.user(evaluation.targetingKey, authorization: request.headers["Authorization"])
        guard let live = catalog.live(client) else { throw unknownClient(client) }
        let acceptLanguage = request.headers["Accept-Language"]
        let absence = catalog.absence(live, context: evaluation.context)
        let localeGiven = evaluation.locale != nil
        guard let user else {
            let (encoded, etag) = tabBars.defaultBar(
                live, context: evaluation.context, localeQuery: evaluation.locale, acceptLanguage: acceptLanguage)
            return Resolution(
                live: live, encoded: encoded, etag: etag, saved: nil, absence: absence, localeGiven: localeGiven)
        }
        let answer = tabBars.userAnswer(
            live, client: client, user: user, context: evaluation.context, localeQuery: evaluation.locale,
            acceptLanguage: acceptLanguage, viaMe: false)
        return Resolution(
            live: live, encoded: answer.encoded, etag: answer.validators.etag, saved: answer.saved, absence: absence,
            localeGiven: localeGiven)
    }

    /// The user the context names, by the user endpoints' rule (``UserAccess``): with user authentication, a token is
    /// required (401) and `targetingKey` must be its subject (403); without, `targetingKey` as it is. Nil for the
    /// default tab bar.
    private func user(_ targetingKey: String?, authorization: String?) throws -> String? {
        guard let targetingKey else {
            guard users.authenticator != nil else { return nil }
            _ = try users.user(pathUser: "me", authorization: authorization, verifying: true)
            throw OFREPError.targetingKeyMissing
        }
        return try users.user(pathUser: targetingKey, authorization: authorization, verifying: true)
    }
}
