import Foundation

extension TabBarClient {
    /// Gives the bearer token of the signed-in user, or nil to send none. Asked before every request, so it may
    /// refresh an expiring token; after a 401 or 403 the client sends nothing until it gives a different token.
    public typealias TokenProvider = @Sendable () async throws -> String?

    /// How a client reaches the service, whose tab bar it asks for, and where it keeps what it learnt.
    public struct Configuration: Sendable {
        /// The service's address, e.g. `https://tabs.example.com` (a path prefix is kept).
        public var baseURL: URL
        /// The client (app flavour) id.
        public var client: String
        /// Whose tab bar: nil for the default one (`GET /v1/clients/{client}/tabs`), else the user's
        /// (`GET /v1/clients/{client}/users/{user}/tabs`), which saves need.
        public var user: User?
        /// What the app tells the service about itself; sent with every tab-bar request and save, with what it
        /// leaves out taken from ``appDefaults``.
        public var context: TabBarContext
        /// What the app is, sent where ``context`` says nothing: by default the platform, the main bundle's version
        /// and the OS version (``TabBarContext/app(bundle:)``), so that targeting and build manifests work with no
        /// app code. Nil sends ``context`` alone.
        public var appDefaults: TabBarContext?
        /// Where the last good answer and the pending save are kept. A directory of the app's own (Application
        /// Support, not Caches: the pending save must survive), which the app's users may share: each user has files
        /// of their own, for `.me` the user the token's `sub` names.
        public var storageDirectory: URL
        /// The tab bar shown on a first launch before the service answers (offline, say).
        public var bundledDefault: TabBar?
        /// Gives the bearer token sent as `Authorization: Bearer`; nil sends none.
        public var tokenProvider: TokenProvider?
        /// How failed requests and conflicting saves are retried.
        public var retryPolicy: RetryPolicy
        /// How often the tab bar is revalidated while the app is active, besides the event stream; nil never.
        public var refreshInterval: Duration?
        /// How long a request may go without a byte before it fails.
        public var requestTimeout: Duration
        /// How long the event stream may go without a byte (the service sends a heartbeat every 15 s) before the
        /// client reconnects.
        public var eventStreamIdleTimeout: Duration
        /// The least time between two reports of tab opens (``TabBarClient/reportOpen(tab:version:)``), which guarded
        /// rollouts advance or roll back by; the app going to the background sends one besides. Nil counts and reports
        /// nothing.
        public var reportInterval: Duration?

        /// A configuration; `baseURL`, `client` and `storageDirectory` are required, the rest has defaults.
        public init(
            baseURL: URL, client: String, user: User? = nil, context: TabBarContext = TabBarContext(),
            appDefaults: TabBarContext? = .app(), storageDirectory: URL, bundledDefault: TabBar? = nil,
            tokenProvider: TokenProvider? = nil,
            retryPolicy: RetryPolicy = RetryPolicy(), refreshInterval: Duration? = nil,
            requestTimeout: Duration = .seconds(30), eventStreamIdleTimeout: Duration = .seconds(45),
            reportInterval: Duration? = .seconds(60)
        ) {
            self.baseURL = baseURL
            self.client = client
            self.user = user
            self.context = context
            self.appDefaults = appDefaults
            self.storageDirectory = storageDirectory
            self.bundledDefault = bundledDefault
            self.tokenProvider = tokenProvider
            self.retryPolicy = retryPolicy
            self.refreshInterval = refreshInterval
            self.requestTimeout = requestTimeout
            self.eventStreamIdleTimeout = eventStreamIdleTimeout
            self.reportInterval = reportInterval
        }

        /// The context sent: ``context``, filled from ``appDefaults``.
        var sentContext: TabBarContext {
            appDefaults.map { context.filling(from: $0) } ?? context
        }

        /// Whether the user is the one the token names (`/users/me/…`), to be told apart by the token's `sub`.
        var identifiesUserByToken: Bool {
            user?.pathComponent == "me"
        }
    }
}
