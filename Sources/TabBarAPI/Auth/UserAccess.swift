import MicroHTTP
import TabBarModel

/// Whom a user endpoint acts for: the one rule, for the router's handlers and the answers from the request head alike.
struct UserAccess: Sendable {
    /// The user-token verifier; nil when user endpoints are open (loopback, or `--allow-anonymous-users`).
    let authenticator: UserAuthenticator?
    /// Where refused tokens are counted, nil when metrics are off.
    let metrics: ServiceMetrics?

    /// The user a user endpoint acts for: the `{user}` path parameter, which must be the bearer token's subject
    /// when user authentication is configured; `me` stands for the token's subject.
    func authorizedUser(_ request: Request) throws -> String {
        let user = try user(
            pathUser: request.pathParameters["user"] ?? "", authorization: request.headers["Authorization"],
            verifying: true)
        guard let user else {
            throw APIError.userUnauthorized("the token could not be verified")
        }
        return user
    }

    /// The user `pathUser` and `authorization` name. Throws what the endpoint answers (400, 401, 403). Without
    /// `verifying`, only a token verified before and still cached is taken: nil means the signature would have to be
    /// checked first.
    func user(pathUser: String, authorization: String?, verifying: Bool) throws -> String? {
        guard let authenticator else {
            if pathUser == "me" {
                throw APIError.unauthorized("/users/me needs user authentication, which this server does not have configured.")
            }
            return try Request.userID(pathUser)
        }
        let subject: String
        if verifying {
            switch authenticator.subject(authorization: authorization) {
            case .success(let verified): subject = verified
            case .failure(let failure):
                metrics?.authenticationFailed(who: "user", reason: failure.reason)
                throw APIError.userUnauthorized(failure.reason)
            }
        } else {
            guard let cached = authenticator.cachedSubject(authorization: authorization) else { return nil }
            subject = cached
        }
        guard Identifiers.isValidUser(subject) else {
            throw APIError.forbidden("The token's subject is not a valid user id.")
        }
        if pathUser == "me" { return subject }
        let user = try Request.userID(pathUser)
        guard user == subject else {
            metrics?.authenticationFailed(who: "user", reason: "token of another user")
            throw APIError.forbidden("The token does not belong to this user.")
        }
        return user
    }
}
