extension TabBarClient {
    /// Whose tab bar a client asks for.
    public enum User: Sendable, Hashable {
        /// The user with this id (what the bearer token's `sub` names when the service checks tokens).
        case id(String)
        /// The user the bearer token names (`/users/me/…`).
        case me

        /// The path segment naming the user.
        var pathComponent: String {
            switch self {
            case .id(let id): id
            case .me: "me"
            }
        }
    }
}
