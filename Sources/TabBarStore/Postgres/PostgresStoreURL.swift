import Foundation

/// A `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]` URL, as `--store` takes it
/// (libpq's form; `postgresql://` too). Without `sslmode`, TLS is used when the server offers it (libpq's `prefer`).
public struct PostgresStoreURL: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var sslMode: String

    /// Parses `text`; nil when it is not a PostgreSQL URL this store can use.
    public init?(_ text: String) {
        guard let components = URLComponents(string: text),
            components.scheme == "postgres" || components.scheme == "postgresql",
            let host = components.host, !host.isEmpty,
            let username = components.user, !username.isEmpty
        else {
            return nil
        }
        let database = String(components.path.drop { $0 == "/" })
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        guard ["disable", "prefer", "require"].contains(sslMode),
            (components.queryItems ?? []).allSatisfy({ $0.name == "sslmode" })
        else {
            return nil
        }
        self.host = host
        port = components.port ?? 5432
        self.username = username.removingPercentEncoding ?? username
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database.isEmpty ? self.username : database
        self.sslMode = sslMode
    }

    /// Whether this build has the PostgreSQL store: the package trait `PostgreSQL` (Package.swift).
    public static var isBuiltIn: Bool {
        #if PostgreSQL
            true
        #else
            false
        #endif
    }

    /// What a build without the PostgreSQL store says when one is asked for.
    public static let notBuiltIn =
        "this tabconfig was built without the PostgreSQL store: build it with `swift build -c release --traits "
        + "PostgreSQL` (`make install` does), or run the container image, which has it"

    /// The URL without its password, for logs.
    public var description: String {
        "postgres://\(username)@\(host):\(port)/\(database)?sslmode=\(sslMode)"
    }
}
