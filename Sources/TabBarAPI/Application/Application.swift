import Foundation
import Logging
import MicroHTTP
import TabBarModel
import TabBarStore

/// The tabconfig service: the file store, the catalog of live configs and the HTTP server, wired together.
public final class Application: Sendable {
    public let configuration: ApplicationConfiguration
    /// The store the service writes to.
    public let store: any TabBarStore
    let catalog: Catalog
    private let adminKeys: AdminKeyring
    private let metrics: ServiceMetrics?
    private let service: ServiceHandlers
    private let server: Server
    private let logger: Logger
    /// The staged rollouts' reports and ticks.
    let rollouts: RolloutSupervisor

    /// Binds the listening address first, so that a start that cannot serve (address in use, say) fails before it
    /// touches the data directory; then opens the store in it (creating it), loads the admin token and seeds the
    /// sample config. Nothing is served until ``start()``.
    public init(configuration: ApplicationConfiguration, logger: Logger) throws {
        let configuration = try configuration.validated()
        self.configuration = configuration
        self.logger = logger
        let metrics = configuration.metrics ? ServiceMetrics() : nil
        let userAuth = try Self.userAuthenticator(configuration, tokenLookups: metrics?.tokenCache, logger: logger)
        let listener = try Listener(host: configuration.host, port: configuration.port)
        let store = try Self.openStore(
            configuration, instruments: metrics?.storeInstruments ?? StoreInstruments(), logger: logger)
        self.store = store
        let events = EventHub(
            maxSubscribers: configuration.maxEventSubscribers,
            heartbeatInterval: .seconds(configuration.eventHeartbeat), logger: logger)
        let catalog = try Catalog(store: store, events: events, logger: logger, answerLookups: metrics?.answerCache)
        if configuration.seedSample,
            try catalog.seed(client: "ios-phone", config: .sample, note: "embedded sample", key: Self.seedKeyName) != nil
        {
            logger.notice("published the sample config", metadata: ["client": "ios-phone"])
        }
        let adminKeys = try Self.adminKeyring(configuration, logger: logger)
        self.catalog = catalog
        self.adminKeys = adminKeys
        self.metrics = metrics
        let admin = AdminAccess(keys: adminKeys, metrics: metrics)
        let users = UserAccess(authenticator: userAuth, metrics: metrics)
        let contexts = ContextReader(countryHeader: configuration.countryHeader)
        let errors = ErrorResponder(store: store, logger: logger)
        let explainer = Explainer(store: store, contexts: contexts, builds: catalog.builds)
        rollouts = RolloutSupervisor(
            catalog: catalog, interval: .seconds(configuration.rolloutInterval), metrics: metrics, logger: logger)
        service = ServiceHandlers(
            catalog: catalog, openAPIDocument: try OpenAPIDocument.load(), metrics: metrics,
            crossOrigin: configuration.crossOriginPolicy)
        let tabBars = TabBarHandlers(
            catalog: catalog, users: users, contexts: contexts,
            cache: CachePolicy(
                maxAge: configuration.cacheMaxAge, staleWhileRevalidate: configuration.cacheStaleWhileRevalidate))
        let responder = TabConfigResponder(
            service: service,
            tabBars: tabBars,
            customizations: CustomizationHandlers(catalog: catalog, users: users, contexts: contexts, errors: errors),
            configs: ConfigHandlers(catalog: catalog, admin: admin, explainer: explainer, logger: logger),
            builds: BuildHandlers(catalog: catalog, admin: admin),
            admin: AdminHandlers(
                catalog: catalog, admin: admin, explainer: explainer, console: try AdminConsole.bundled()),
            ofrep: OFREPHandlers(catalog: catalog, tabBars: tabBars, users: users, contexts: contexts),
            rollouts: RolloutHandlers(
                catalog: catalog, supervisor: rollouts, admin: admin, users: users, metrics: metrics),
            errors: errors, maxBodySize: configuration.maxBodySize)
        var serverConfiguration = Server.Configuration()
        serverConfiguration.host = configuration.host
        serverConfiguration.port = configuration.port
        serverConfiguration.threadPoolSize = configuration.threads
        serverConfiguration.connectionLimit = configuration.connectionLimit
        serverConfiguration.perIPConnectionLimit = configuration.perIPConnectionLimit
        serverConfiguration.connectionTimeout = configuration.connectionTimeout
        serverConfiguration.connectionMemoryLimit = configuration.connectionMemoryLimit
        serverConfiguration.maxBodySize = configuration.maxBodySize
        serverConfiguration.accessLog = configuration.accessLog
        serverConfiguration.logFormat = configuration.logFormat
        serverConfiguration.crossOrigin = configuration.crossOriginPolicy
        serverConfiguration.requestObserver = metrics?.http
        server = Server(
            configuration: serverConfiguration, responder: responder, logger: logger,
            listener: listener)
    }

    /// The key name the audit log gives the sample config's publish: no admin key made it.
    static let seedKeyName = "tabconfig (sample)"

    /// The keys file's keys and the admin token's key: `TABCONFIG_ADMIN_TOKEN`, else, without a keys file, the token
    /// read from or generated into the data directory.
    private static func adminKeyring(_ configuration: ApplicationConfiguration, logger: Logger) throws -> AdminKeyring {
        var token = configuration.adminToken
        if token == nil, configuration.adminKeysFile == nil {
            token = try AdminToken.load(configured: nil, dataDirectory: configuration.dataDirectory, logger: logger)
        }
        let keyring = try AdminKeyring(
            file: configuration.adminKeysFile,
            tokenKey: token.map { AdminKey(name: AdminToken.keyName, scope: .admin, token: $0) })
        if let file = configuration.adminKeysFile {
            logger.info(
                "read the admin keys file",
                metadata: ["path": "\(file.path)", "keys": "\(keyring.current.map(\.name).joined(separator: ","))"])
        }
        return keyring
    }

    /// Re-reads the admin keys file (SIGHUP), logging the keys now in force, or why the previous ones stay in force.
    /// Requests in flight finish with the key they were let in by. Returns whether the file was read.
    @discardableResult
    public func reloadAdminKeys() -> Bool {
        guard let file = adminKeys.file else {
            logger.notice("no admin keys file is configured: nothing to reload")
            return false
        }
        do {
            let keys = try adminKeys.reload()
            metrics?.adminKeysReloaded(succeeded: true)
            logger.notice(
                "reloaded the admin keys file",
                metadata: ["path": "\(file.path)", "keys": "\(keys.map(\.name).joined(separator: ","))"])
            return true
        } catch {
            metrics?.adminKeysReloaded(succeeded: false)
            logger.error("cannot reload the admin keys file; the keys in force stay: \(error)")
            return false
        }
    }

    /// The PostgreSQL store when a store URL is configured, else the file store in the data directory.
    private static func openStore(
        _ configuration: ApplicationConfiguration, instruments: StoreInstruments, logger: Logger
    ) throws -> any TabBarStore {
        guard let url = configuration.storeURL else {
            var options = FileStore.Options()
            options.instruments = instruments
            options.keepVersions = configuration.keepVersions
            options.groupCommit = configuration.groupCommit
            return try FileStore(directory: configuration.dataDirectory, options: options, logger: logger)
        }
        #if PostgreSQL
            if configuration.adminToken == nil, configuration.adminKeysFile == nil {
                logger.warning(
                    "with a PostgreSQL store, set TABCONFIG_ADMIN_TOKEN or an admin keys file: a token generated into the data directory is this replica's only")
            }
            var options = PostgresStore.Options()
            options.keepVersions = configuration.keepVersions
            options.instruments = instruments
            return try PostgresStore(url: url, options: options, logger: logger)
        #else
            _ = url
            throw ConfigurationError(description: PostgresStoreURL.notBuiltIn)
        #endif
    }

    /// The user-token verifier, or nil for open user endpoints, which are allowed on loopback addresses only
    /// unless `allowAnonymousUsers` says otherwise.
    private static func userAuthenticator(
        _ configuration: ApplicationConfiguration, tokenLookups: CacheLookups?, logger: Logger
    ) throws -> UserAuthenticator? {
        if configuration.userAuth.isEnabled {
            return try UserAuthenticator(configuration: configuration.userAuth, tokenLookups: tokenLookups)
        }
        guard configuration.isLoopbackHost || configuration.allowAnonymousUsers else {
            throw ConfigurationError(
                description: "refusing to serve user endpoints without authentication on \(configuration.host): "
                    + "configure TABCONFIG_JWT_HS256_SECRET or TABCONFIG_JWT_JWKS_FILE, or pass --allow-anonymous-users")
        }
        logger.warning(
            "user endpoints accept requests without authentication: anyone who can reach \(configuration.host) can read and change any user's tab order",
            metadata: ["host": "\(configuration.host)"])
        return nil
    }

    /// Starts serving and logs the bound address.
    public func start() throws {
        try server.start()
        rollouts.start()
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        logger.notice("listening on http://\(host):\(server.port)", metadata: ["version": "\(BuildInfo.version)"])
    }

    /// The bound port (the real one when configured with 0).
    public var port: Int { server.port }

    /// The event streams' hub.
    var events: EventHub { catalog.events }

    /// Graceful stop: `/readyz` fails at once, in-flight requests finish, then the store closes.
    public func shutdown() {
        service.beginShutdown()
        logger.notice("shutting down")
        catalog.events.stop()
        rollouts.stop()
        server.shutdown(gracePeriod: .seconds(configuration.shutdownGracePeriod))
        store.close()
        logger.notice("stopped")
    }
}

/// What this build of the service is: `tabconfig --version` prints it and `GET /healthz` answers it.
///
/// The version is raised with each release; the OpenAPI document's `info.version` is the API's own version and
/// changes only when the API does.
public enum BuildInfo {
    /// The service's version (semantic versioning).
    public static let version = "0.14.0"
}

/// The `openapi.yaml` shipped inside the module's resources (the repository root links to it).
enum OpenAPIDocument {
    /// Reads the document; fails when the resource bundle was not installed next to the executable.
    static func load() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw ConfigurationError(description: "openapi.yaml is missing from the TabBarAPI resource bundle")
        }
        return try Data(contentsOf: url)
    }
}
