import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TabBarClient {
    /// The tab bar's URL: the user's or the default one, with the context's query parameters.
    nonisolated var tabsURL: URL {
        if let user = configuration.user {
            return endpoint(["users", user.pathComponent, "tabs"], withContext: true)
        }
        return endpoint(["tabs"], withContext: true)
    }

    /// The user's stored customization, with or without the context (a save sends it).
    nonisolated func tabOrderURL(withContext: Bool) -> URL? {
        configuration.user.map { endpoint(["users", $0.pathComponent, "tab-order"], withContext: withContext) }
    }

    /// The client's event stream.
    nonisolated var eventsURL: URL { endpoint(["tabs", "events"], withContext: false) }

    /// Where the client reports tab opens.
    nonisolated var reportsURL: URL { endpoint(["reports"], withContext: false) }

    /// What a tab-bar answer answers: its URL (user and context included), the languages asked for and, for
    /// ``User/me``, the user the token names. A held or cached answer is served only for the same.
    var requestKey: String {
        let request = "GET \(tabsURL.absoluteString) Accept-Language: \(acceptLanguage ?? "")"
        return storage?.subject.map { "\(request) Subject: \($0)" } ?? request
    }

    /// The languages asked for when the context names no locale: the user's preferred ones, most preferred first.
    nonisolated var acceptLanguage: String? {
        guard configuration.sentContext.locale == nil else { return nil }
        let languages = Locale.preferredLanguages.prefix(4)
        guard !languages.isEmpty else { return nil }
        return languages.enumerated().map { index, tag in
            index == 0 ? tag : "\(tag);q=0.\(9 - index)"
        }.joined(separator: ", ")
    }

    /// `GET`-style request for `url` with the headers every request carries.
    nonisolated func request(_ url: URL, method: String = "GET") -> URLRequest {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let acceptLanguage { request.setValue(acceptLanguage, forHTTPHeaderField: "Accept-Language") }
        return request
    }

    /// `/v1/clients/{client}/…` under the base URL, each segment percent-encoded.
    private nonisolated func endpoint(_ segments: [String], withContext: Bool) -> URL {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        for segment in ["v1", "clients", configuration.client] + segments {
            path += "/" + Self.percentEncoded(segment)
        }
        components.percentEncodedPath = path
        let query = configuration.sentContext.queryParameters.map {
            "\(Self.percentEncoded($0.name))=\(Self.percentEncoded($0.value))"
        }
        components.percentEncodedQuery = withContext && !query.isEmpty ? query.joined(separator: "&") : nil
        return components.url ?? configuration.baseURL
    }

    /// `text` with everything but unreserved characters percent-encoded (so `+`, `&`, `/` cannot change meaning).
    private static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<"\u{80}"))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// Sends `request`, made for the files of `owner` (``ClientStorage/owner``), with the user's token, unless the
    /// service asked to wait or refused the token the provider still gives; sorts the answer's status (see
    /// ``screen(_:token:)``). Throws ``UserChanged`` instead when the token names another user than `owner`, before
    /// sending, or when the client came to hold another user's files while it was sent.
    func send(_ request: URLRequest, for owner: String?) async throws -> HTTPAnswer {
        guard !stopped else { throw TabBarClientError.stopped }
        if let wait = remainingWait() {
            throw record(.retryLater(until: Date().addingTimeInterval(wait.timeInterval)))
        }
        let token = try await admittedToken()
        guard storage?.owner == owner else { throw UserChanged() }
        var request = request
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let answer: HTTPAnswer
        do {
            answer = try await transport.send(request)
        } catch {
            if Task.isCancelled || stopped { throw CancellationError() }
            statuses.update { $0.connection = .unreachable }
            throw record(.network(error.localizedDescription))
        }
        let screened = try screen(answer, token: token)
        guard storage?.owner == owner else { throw UserChanged() }
        return screened
    }

    /// Runs `request`, one for the user whose files the client holds, again for the user the token came to name
    /// instead (the client then holds their files), three times in all; then fails: the token names another user
    /// each time it is asked for.
    func forHeldUser<Result>(_ request: () async throws -> Result) async throws -> Result {
        var changes = 0
        while true {
            do {
                return try await request()
            } catch is UserChanged {
                changes += 1
                guard changes < 3 else {
                    throw record(.tokenUnavailable("the token named another user each time it was asked for"))
                }
            }
        }
    }

    /// How long the service asked to wait still, or nil.
    func remainingWait() -> Duration? {
        guard let wait = schedule.remainingWait() else {
            statuses.update { $0.retryAfter = nil }
            return nil
        }
        return wait
    }

    /// The provider's token, unless it is the one the service refused: then nothing may be sent. For ``User/me``
    /// the client holds the files of the user it names from then on (``hold(userNamedBy:)``).
    func admittedToken() async throws -> String? {
        let token: String?
        do {
            token = try await configuration.tokenProvider?() ?? nil
        } catch {
            throw record(.tokenUnavailable(String(describing: error)))
        }
        hold(userNamedBy: token)
        if tokens.isClosed {
            guard tokens.admits(token) else {
                let status = if case .unauthorized(let status) = self.status.connection { status } else { 401 }
                throw TabBarClientError.unauthorized(status: status, problem: nil)
            }
            statuses.update { $0.connection = .unknown }
        }
        return token
    }

    /// Sorts an answer's status: a 401 or 403 stops all requests (the event stream and retries too) until another
    /// token, a 429 or 503 honours its `Retry-After`, another 5xx is a server error; any other answer is returned
    /// (the service is reachable).
    func screen(_ answer: HTTPAnswer, token: String?) throws -> HTTPAnswer {
        switch answer.status {
        case 401, 403:
            tokens.refuse(token)
            schedule.cancelRecovery()
            events.stop()
            let error = TabBarClientError.unauthorized(status: answer.status, problem: answer.problem)
            statuses.update {
                $0.connection = .unauthorized(status: answer.status)
                $0.eventStream = .stopped
                $0.lastError = error
            }
            throw error
        case 429, 503:
            let until = answer.retryAfter.flatMap { RetryAfter.delay($0) }.map(honourRetryAfter)
            statuses.update { $0.connection = answer.status == 503 ? .unreachable : .reachable }
            throw record(.unavailable(status: answer.status, retryAfter: until))
        case 500...:
            statuses.update { $0.connection = .unreachable }
            throw record(.server(status: answer.status, problem: answer.problem))
        default:
            statuses.update { $0.connection = .reachable }
            return answer
        }
    }

    /// Sends nothing for `delay` from now; returns the moment it ends.
    private func honourRetryAfter(_ delay: Duration) -> Date {
        schedule.honour(retryAfter: delay)
        let date = Date().addingTimeInterval(delay.timeInterval)
        statuses.update { $0.retryAfter = max($0.retryAfter ?? date, date) }
        return date
    }

    /// The error of an answer the caller cannot use: the service's problem, or one made from the status.
    func rejection(_ answer: HTTPAnswer) -> TabBarClientError {
        let problem =
            answer.problem
            ?? Problem(
                type: "about:blank", title: HTTPURLResponse.localizedString(forStatusCode: answer.status),
                status: answer.status, detail: "The service answered \(answer.status).")
        return record(.rejected(problem))
    }

    /// `body` as a tab bar.
    func decodeTabBar(_ body: Data) throws -> TabBar {
        do {
            return try JSONDecoder().decode(TabBar.self, from: body)
        } catch {
            throw record(.invalidAnswer("the tab bar does not decode: \(error)"))
        }
    }
}

/// A request was made for one user's files while the token came to name another: it is not sent, or its answer not
/// used. ``TabBarClient/forHeldUser(_:)`` makes it again for the user now held.
struct UserChanged: Error {}
