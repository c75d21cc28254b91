import ArgumentParser
import Foundation
import Logging
import TabBarAPI

/// `tabconfig serve`: runs the HTTP service until SIGTERM or SIGINT; SIGHUP re-reads the admin keys file.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP service (flags win over TABCONFIG_* variables; SIGHUP reloads the admin keys file).",
        discussion: """
            Settings read only from the environment (secrets stay out of the process list):
              TABCONFIG_ADMIN_TOKEN              token of the admin-scope key admin-token;
                                                 without --admin-keys, read from or
                                                 generated into <data-dir>/admin-token
              TABCONFIG_JWT_HS256_SECRET         user auth: HS256 secret, 32 bytes or more
              TABCONFIG_JWT_JWKS_FILE            user auth: JWKS file (RS256/ES256 keys)
              TABCONFIG_JWT_ISSUER               a user token's iss must equal it
              TABCONFIG_JWT_AUDIENCE             a user token's aud must contain it
              TABCONFIG_JWT_LEEWAY               seconds of leeway for exp, nbf and iat
              TABCONFIG_CONNECTION_MEMORY_LIMIT  bytes per connection (default 32768)
              TABCONFIG_SHUTDOWN_GRACE           grace seconds on SIGTERM (default 8)
              TABCONFIG_MAX_EVENT_SUBSCRIBERS    open event streams at most (default 768),
                                                 leaving a quarter of the connections
                                                 (--connection-limit) to requests
              TABCONFIG_EVENT_HEARTBEAT          seconds between heartbeats (default 15)
              TABCONFIG_GROUP_COMMIT             false: one fsync per write (default true)
            Without a JWT secret or JWKS file, user endpoints are open: allowed on a
            loopback address only, or with --allow-anonymous-users.
            """)

    @Option(help: "The IP address to listen on, IPv4 or IPv6 (TABCONFIG_HOST, default 127.0.0.1).")
    var host: String?
    @Option(help: "The TCP port to listen on; 0 picks a free one (TABCONFIG_PORT, default 8080).")
    var port: Int?
    @Option(name: .customLong("data-dir"), help: "Data directory (TABCONFIG_DATA_DIR, default ./data).")
    var dataDir: String?
    @Option(help: "A PostgreSQL database to keep everything in, shared by several replicas: postgres://USER:PASSWORD@HOST:PORT/DATABASE, the password and port optional, with ?sslmode=disable, prefer or require (TABCONFIG_STORE_URL; default: the file store in the data directory).")
    var store: String?
    @Option(name: .customLong("admin-keys"), help: "A JSON file of named admin keys with scopes (read, publish, admin), holding SHA-256 digests of their tokens (`tabconfig keys add` writes it); SIGHUP re-reads it (TABCONFIG_ADMIN_KEYS_FILE).")
    var adminKeys: String?
    @Option(name: .customLong("max-body-size"), help: "Largest request body in bytes (TABCONFIG_MAX_BODY_SIZE, default 1048576).")
    var maxBodySize: Int?
    @Option(name: .customLong("connection-limit"), help: "Most concurrent connections (TABCONFIG_CONNECTION_LIMIT, default 1024).")
    var connectionLimit: Int?
    @Option(name: .customLong("per-ip-connection-limit"), help: "Most connections per IP, 0 = no limit (TABCONFIG_PER_IP_CONNECTION_LIMIT, default 0).")
    var perIPConnectionLimit: Int?
    @Option(name: .customLong("connection-timeout"), help: "Idle seconds before a connection is closed, also the seconds a request head may take to arrive (TABCONFIG_CONNECTION_TIMEOUT, default 30).")
    var connectionTimeout: Int?
    @Option(name: .customLong("threads"), help: "Worker threads (TABCONFIG_THREADS; default: one per CPU core).")
    var threads: Int?
    @Option(name: .customLong("cache-max-age"), help: "max-age in seconds of the default tab bar, for a CDN; 0 = no-cache, revalidate at every use (TABCONFIG_CACHE_MAX_AGE, default 0).")
    var cacheMaxAge: Int?
    @Option(name: .customLong("cache-stale-while-revalidate"), help: "stale-while-revalidate in seconds added to a default tab bar max-age (TABCONFIG_CACHE_STALE_WHILE_REVALIDATE, default 0).")
    var cacheStaleWhileRevalidate: Int?
    @Option(name: .customLong("keep-versions"), help: "Config versions kept per client (TABCONFIG_KEEP_VERSIONS, default 100).")
    var keepVersions: Int?
    @Option(name: .customLong("rollout-interval"), help: "Seconds between the ticks that count the apps' reports and move staged rollouts (TABCONFIG_ROLLOUT_INTERVAL, default 60).")
    var rolloutInterval: Int?
    @Option(name: .customLong("country-header"), help: "Trusted header holding the request's country for targeting, e.g. CF-IPCountry; wins over ?country= (TABCONFIG_COUNTRY_HEADER, default none).")
    var countryHeader: String?
    @Flag(name: .customLong("allow-anonymous-users"), help: "Open user endpoints on a non-loopback address with no authentication (TABCONFIG_ALLOW_ANONYMOUS_USERS).")
    var allowAnonymousUsers = false
    @Flag(name: .customLong("no-sample"), help: "Do not publish the sample config into a store that never held a client (TABCONFIG_SEED_SAMPLE=false).")
    var noSample = false
    @Flag(name: .customLong("no-access-log"), help: "Do not log a line per request: method, route, status, duration (TABCONFIG_ACCESS_LOG=false).")
    var noAccessLog = false
    @Flag(name: .customLong("no-metrics"), help: "Do not record the metrics nor serve them at GET /metrics (TABCONFIG_METRICS=false).")
    var noMetrics = false
    @Option(name: .customLong("log-level"), help: "Lowest level logged: trace, debug, info, notice, warning, error, critical; the access log needs info (TABCONFIG_LOG_LEVEL, default info).")
    var logLevel: String?
    @Option(name: .customLong("log-format"), help: "text, or json for one JSON object a line (TABCONFIG_LOG_FORMAT, default text).")
    var logFormat: String?
    @Option(name: .customLong("cors-origin"), help: "An origin whose web pages may call the service, such as https://console.example.com; repeatable; * lets any origin read the default tab bar and its event stream (TABCONFIG_CORS_ORIGINS, comma-separated, default none).")
    var corsOrigins: [String] = []

    func run() throws {
        // Before any thread starts, so that a signal arriving during startup waits for the server to be up.
        let signals = SignalWaiter(blocking: [SIGTERM, SIGINT, SIGHUP])
        var configuration = try ApplicationConfiguration(environment: ProcessInfo.processInfo.environment)
        if let logLevel { configuration.logLevel = try ApplicationConfiguration.parseLogLevel(logLevel) }
        if let logFormat { configuration.logFormat = try ApplicationConfiguration.parseLogFormat(logFormat) }
        let level = configuration.logLevel
        switch configuration.logFormat {
        case .text:
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        case .json:
            LoggingSystem.bootstrap { label in
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
        let logger = Logger(label: "tabconfig")
        if let host { configuration.host = host }
        if let port { configuration.port = port }
        if let dataDir { configuration.dataDirectory = URL(fileURLWithPath: dataDir) }
        if let adminKeys { configuration.adminKeysFile = URL(fileURLWithPath: adminKeys) }
        if let store { configuration.storeURL = try ApplicationConfiguration.parseStoreURL(store) }
        if let maxBodySize { configuration.maxBodySize = maxBodySize }
        if let connectionLimit { configuration.connectionLimit = connectionLimit }
        if let perIPConnectionLimit { configuration.perIPConnectionLimit = perIPConnectionLimit }
        if let connectionTimeout { configuration.connectionTimeout = connectionTimeout }
        if let threads { configuration.threads = threads }
        if let cacheMaxAge { configuration.cacheMaxAge = cacheMaxAge }
        if let cacheStaleWhileRevalidate { configuration.cacheStaleWhileRevalidate = cacheStaleWhileRevalidate }
        if let keepVersions { configuration.keepVersions = keepVersions }
        if let rolloutInterval { configuration.rolloutInterval = rolloutInterval }
        if let countryHeader { configuration.countryHeader = countryHeader }
        if allowAnonymousUsers { configuration.allowAnonymousUsers = true }
        if noSample { configuration.seedSample = false }
        if noAccessLog { configuration.accessLog = false }
        if !corsOrigins.isEmpty { configuration.corsOrigins = corsOrigins }
        if noMetrics { configuration.metrics = false }
        do {
            configuration = try configuration.validated()
        } catch {
            StandardError.print("tabconfig serve: invalid configuration: \(error)")
            throw ExitCode.validationFailure
        }
        let application: Application
        do {
            application = try Application(configuration: configuration, logger: logger)
            try application.start()
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode.failure
        }
        while signals.wait() == SIGHUP {
            application.reloadAdminKeys()
        }
        application.shutdown()
    }
}
