import Foundation
import Logging
import MicroHTTP
import TabBarStore

/// Everything the service can be configured with; flags and `TABCONFIG_*` variables map onto it.
public struct ApplicationConfiguration: Sendable, Equatable {
    /// Address to listen on.
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one.
    public var port = 8080
    /// Directory holding the store and the generated admin token.
    public var dataDirectory = URL(fileURLWithPath: "data")
    /// A PostgreSQL database to keep everything in instead of the data directory's file store (several replicas
    /// can share it); the data directory then holds only a generated admin token.
    public var storeURL: PostgresStoreURL?
    /// Bearer token of an `admin` key named `admin-token`; `nil` reads or generates `<data>/admin-token`, unless
    /// an admin keys file is configured.
    public var adminToken: String?
    /// A file of named admin keys with scopes (``AdminKeysFile``), re-read on SIGHUP.
    public var adminKeysFile: URL?
    /// Largest accepted request body in bytes.
    public var maxBodySize = 1024 * 1024
    /// Most connections served at once.
    public var connectionLimit = 1024
    /// Most connections from one IP address at once; 0 means no limit.
    public var perIPConnectionLimit = 0
    /// Seconds of inactivity after which a connection is closed.
    public var connectionTimeout = 30
    /// Bytes of memory per connection, which bounds the request line and headers.
    public var connectionMemoryLimit = 32 * 1024
    /// Worker threads serving requests: one per core by default (measured best on 2 cores; no request holds a
    /// thread while it waits for the disk).
    public var threads = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 256)
    /// Seconds in-flight requests get to finish on shutdown.
    public var shutdownGracePeriod = 8
    /// `max-age` in seconds of the default tab bar's `Cache-Control`, for a CDN or shared cache in front; 0 (the
    /// default) sends `no-cache`: every use revalidates (a cheap 304), so a new version shows at once. Per-user and
    /// admin representations are always `private, no-cache`.
    public var cacheMaxAge = 0
    /// `stale-while-revalidate` in seconds added to the default tab bar's `Cache-Control` when `cacheMaxAge` > 0.
    public var cacheStaleWhileRevalidate = 0
    /// Versions kept per client; older ones are pruned.
    public var keepVersions = 100
    /// Most open server-sent-event streams; more are refused with 503. At most `connectionLimit` less
    /// ``reservedConnections``.
    public var maxEventSubscribers = 768
    /// Seconds between heartbeat comments on event streams.
    public var eventHeartbeat = 15
    /// Seconds between the ticks that add the apps' reports to the store and move staged rollouts (docs/rollouts.md).
    public var rolloutInterval = 60
    /// How user bearer tokens are verified; not configured means user endpoints are open (loopback only).
    public var userAuth = UserAuthConfiguration()
    /// Serve user endpoints without authentication on a non-loopback address.
    public var allowAnonymousUsers = false
    /// Whether concurrent tab-order writes share one fsync; false gives every write its own (a benchmark baseline).
    public var groupCommit = true
    /// Publish the sample config for `ios-phone` when the data directory holds no client.
    public var seedSample = true
    /// Log every finished request at `info`: method, route, status, duration, bytes, request id.
    public var accessLog = true
    /// Serve `GET /metrics` (Prometheus) and record the series it shows.
    public var metrics = true
    /// The lowest level logged.
    public var logLevel = Logger.Level.info
    /// Log lines as swift-log's text or as one JSON object a line.
    public var logFormat = LogFormat.text
    /// Origins whose web pages may call the service (CORS), exactly as browsers send them
    /// (`https://console.example.com`); `*` lets any origin read the default tab bar and its event stream.
    public var corsOrigins: [String] = []
    /// A request header set by a trusted proxy or CDN (e.g. `CF-IPCountry`) whose ISO 3166-1 alpha-2 code is the
    /// request's `country` for targeting, over the `?country=` query parameter; nil trusts only the query.
    public var countryHeader: String?

    public init() {}
}

extension ApplicationConfiguration {
    /// The defaults overlaid with the `TABCONFIG_*` variables found in `environment`.
    public init(environment: [String: String]) throws {
        self.init()
        func int(_ name: String) throws -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Int(text), value >= 0 else {
                throw ConfigurationError(description: "\(name) must be a non-negative integer, got '\(text)'")
            }
            return value
        }
        func bool(_ name: String) throws -> Bool? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            switch text.lowercased() {
            case "1", "true", "yes": return true
            case "0", "false", "no": return false
            default: throw ConfigurationError(description: "\(name) must be true or false, got '\(text)'")
            }
        }
        if let host = environment["TABCONFIG_HOST"], !host.isEmpty { self.host = host }
        if let port = try int("TABCONFIG_PORT") { self.port = port }
        if let dir = environment["TABCONFIG_DATA_DIR"], !dir.isEmpty { dataDirectory = URL(fileURLWithPath: dir) }
        if let token = environment["TABCONFIG_ADMIN_TOKEN"], !token.isEmpty { adminToken = token }
        if let file = environment["TABCONFIG_ADMIN_KEYS_FILE"], !file.isEmpty {
            adminKeysFile = URL(fileURLWithPath: file)
        }
        if let url = environment["TABCONFIG_STORE_URL"], !url.isEmpty { storeURL = try Self.parseStoreURL(url) }
        if let value = try int("TABCONFIG_MAX_BODY_SIZE") { maxBodySize = value }
        if let value = try int("TABCONFIG_CONNECTION_LIMIT") { connectionLimit = value }
        if let value = try int("TABCONFIG_PER_IP_CONNECTION_LIMIT") { perIPConnectionLimit = value }
        if let value = try int("TABCONFIG_CONNECTION_TIMEOUT") { connectionTimeout = value }
        if let value = try int("TABCONFIG_CONNECTION_MEMORY_LIMIT") { connectionMemoryLimit = value }
        if let value = try int("TABCONFIG_THREADS") { threads = value }
        if let value = try int("TABCONFIG_SHUTDOWN_GRACE") { shutdownGracePeriod = value }
        if let value = try int("TABCONFIG_CACHE_MAX_AGE") { cacheMaxAge = value }
        if let value = try int("TABCONFIG_CACHE_STALE_WHILE_REVALIDATE") { cacheStaleWhileRevalidate = value }
        if let value = try int("TABCONFIG_KEEP_VERSIONS") { keepVersions = value }
        if let value = try int("TABCONFIG_MAX_EVENT_SUBSCRIBERS") { maxEventSubscribers = value }
        if let value = try int("TABCONFIG_EVENT_HEARTBEAT") { eventHeartbeat = value }
        if let value = try int("TABCONFIG_ROLLOUT_INTERVAL") { rolloutInterval = value }
        if let seed = try bool("TABCONFIG_SEED_SAMPLE") { seedSample = seed }
        if let allow = try bool("TABCONFIG_ALLOW_ANONYMOUS_USERS") { allowAnonymousUsers = allow }
        if let group = try bool("TABCONFIG_GROUP_COMMIT") { groupCommit = group }
        if let log = try bool("TABCONFIG_ACCESS_LOG") { accessLog = log }
        if let enabled = try bool("TABCONFIG_METRICS") { metrics = enabled }
        if let header = environment["TABCONFIG_COUNTRY_HEADER"], !header.isEmpty { countryHeader = header }
        if let level = environment["TABCONFIG_LOG_LEVEL"], !level.isEmpty { logLevel = try Self.parseLogLevel(level) }
        if let format = environment["TABCONFIG_LOG_FORMAT"], !format.isEmpty { logFormat = try Self.parseLogFormat(format) }
        if let origins = environment["TABCONFIG_CORS_ORIGINS"], !origins.isEmpty {
            corsOrigins = origins.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        userAuth = try UserAuthConfiguration(environment: environment)
    }

    /// Checks ranges that would make the server unusable.
    public func validated() throws -> ApplicationConfiguration {
        guard (0...65535).contains(port) else { throw ConfigurationError(description: "port must be 0…65535, got \(port)") }
        guard maxBodySize >= 1024 else { throw ConfigurationError(description: "max body size must be at least 1024 bytes") }
        guard connectionLimit >= 1 else { throw ConfigurationError(description: "connection limit must be at least 1") }
        guard connectionTimeout >= 1 else { throw ConfigurationError(description: "connection timeout must be at least 1 second") }
        guard connectionMemoryLimit >= 8 * 1024 else {
            throw ConfigurationError(description: "connection memory limit must be at least 8192 bytes")
        }
        guard cacheMaxAge >= 0, cacheStaleWhileRevalidate >= 0 else {
            throw ConfigurationError(description: "cache max-age and stale-while-revalidate must not be negative")
        }
        guard keepVersions >= 1 else { throw ConfigurationError(description: "keep versions must be at least 1") }
        guard eventHeartbeat >= 1 else { throw ConfigurationError(description: "event heartbeat must be at least 1 second") }
        guard (1...86_400).contains(rolloutInterval) else {
            throw ConfigurationError(description: "rollout interval must be 1…86400 seconds, got \(rolloutInterval)")
        }
        guard maxEventSubscribers >= 0, maxEventSubscribers <= connectionLimit - reservedConnections else {
            throw ConfigurationError(
                description: "TABCONFIG_MAX_EVENT_SUBSCRIBERS must be 0…\(max(connectionLimit - reservedConnections, 0)), "
                    + "got \(maxEventSubscribers): event streams may take at most \(connectionLimit - reservedConnections) "
                    + "of the \(connectionLimit) connections (--connection-limit), the other \(reservedConnections) are kept "
                    + "for requests")
        }
        guard (1...256).contains(threads) else { throw ConfigurationError(description: "threads must be 1…256, got \(threads)") }
        if let countryHeader, !HTTPHeaders.isValidName(countryHeader) {
            throw ConfigurationError(description: "country header must be a header field name, got '\(countryHeader)'")
        }
        for origin in corsOrigins where !Self.isValidCORSOrigin(origin) {
            throw ConfigurationError(
                description: "a CORS origin must be * or SCHEME://HOST[:PORT] in lower case without a path, got '\(origin)'")
        }
        return self
    }

    /// The connections event streams can never take, kept for requests: a quarter of `connectionLimit`, at least 1.
    public var reservedConnections: Int {
        max(connectionLimit / 4, 1)
    }

    /// What `corsOrigins` lets pages on other origins do.
    public var crossOriginPolicy: CrossOriginPolicy {
        var policy = CrossOriginPolicy()
        policy.origins = Set(corsOrigins.filter { $0 != "*" })
        policy.anyOriginForPublicRoutes = corsOrigins.contains("*")
        policy.publicRoutes = [TabConfigResponder.defaultTabsRoute, TabConfigResponder.tabEventsRoute]
        return policy
    }

    /// `*`, or an origin as a browser serializes it: a lower-case scheme, `://`, a lower-case host, an optional port.
    static func isValidCORSOrigin(_ origin: String) -> Bool {
        if origin == "*" { return true }
        return origin.wholeMatch(of: /[a-z][a-z0-9+.\-]*:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.\-]+)(:[0-9]{1,5})?/) != nil
    }

    /// A `--log-level` / `TABCONFIG_LOG_LEVEL` value: trace, debug, info, notice, warning, error or critical.
    public static func parseLogLevel(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(description: "the log level must be one of \(levels), got '\(text)'")
        }
        return level
    }

    /// A `--log-format` / `TABCONFIG_LOG_FORMAT` value: text or json.
    public static func parseLogFormat(_ text: String) throws -> LogFormat {
        guard let format = LogFormat(rawValue: text.lowercased()) else {
            throw ConfigurationError(description: "the log format must be text or json, got '\(text)'")
        }
        return format
    }

    /// Whether `host` only accepts connections from this machine (127.0.0.0/8 or ::1).
    public var isLoopbackHost: Bool {
        host == "::1" || host.split(separator: ".").first == "127"
    }

    /// A `--store` / `TABCONFIG_STORE_URL` value as a PostgreSQL URL; an error in a build without the PostgreSQL
    /// store.
    public static func parseStoreURL(_ text: String) throws -> PostgresStoreURL {
        guard let url = PostgresStoreURL(text) else {
            throw ConfigurationError(
                description: "the store URL must be postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]")
        }
        guard PostgresStoreURL.isBuiltIn else {
            throw ConfigurationError(description: PostgresStoreURL.notBuiltIn)
        }
        return url
    }
}

/// A configuration value is out of range or unparsable.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
