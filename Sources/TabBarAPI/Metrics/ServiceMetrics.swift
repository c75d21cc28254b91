import Prometheus
import Synchronization
import TabBarStore

/// The service's Prometheus series (`GET /metrics`), kept in a registry of its own (swift-prometheus writes the text
/// format, HELP and TYPE lines included). Counters and histograms are recorded where things happen; the gauges of
/// state (live versions, customizations, journal bytes, event-stream subscribers) are read when scraped.
final class ServiceMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    /// Requests by route, method and status, and their latency.
    let http: HTTPMetrics
    /// The encoded answers of the live versions (`VersionCache`).
    let answerCache: CacheLookups
    /// Verified user tokens.
    let tokenCache: CacheLookups
    /// Commit latency and batch size of tab-order writes, reported by the store.
    let storeInstruments: StoreInstruments

    private let customizations: Gauge
    private let journalBytes: Gauge
    private let subscribers: Gauge
    private let liveVersions = Mutex<[String: Gauge]>([:])

    private static let liveVersionHelp = "The live config version of each client."
    private static let authFailureHelp = "Requests refused for their credentials, by who (admin, user) and reason."

    init() {
        http = HTTPMetrics(registry: registry)
        answerCache = CacheLookups(cache: "encoded_answers", registry: registry)
        tokenCache = CacheLookups(cache: "user_tokens", registry: registry)
        storeInstruments = StoreInstruments(
            commitDuration: registry.makeDurationHistogram(
                name: "tabconfig_store_commit_duration_seconds", labels: [], buckets: HTTPMetrics.durationBuckets,
                help: "Time for a commit of tab-order writes to become durable (journal write and fsync, or a transaction)."),
            commitBatchSize: registry.makeValueHistogram(
                name: "tabconfig_store_commit_batch_size", labels: [], buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
                help: "Tab-order writes made durable by one commit."))
        customizations = registry.makeGauge(
            name: "tabconfig_customizations", help: "Users' stored tab orders, over all clients.")
        journalBytes = registry.makeGauge(
            name: "tabconfig_store_journal_bytes", help: "Size of the file store's customizations journal (0 on PostgreSQL).")
        subscribers = registry.makeGauge(
            name: "tabconfig_event_subscribers", help: "Open event streams of this process.")
        registry.makeGauge(
            name: "tabconfig_build_info", labels: [("version", BuildInfo.version)],
            help: "The running build; always 1.").set(to: 1)
    }

    /// Counts a request refused for its credentials.
    func authenticationFailed(who: String, reason: String) {
        registry.makeCounter(
            name: "tabconfig_auth_failures_total", labels: [("who", who), ("reason", reason)],
            help: Self.authFailureHelp
        ).increment()
    }

    /// The text format of every series, with the gauges of state read now.
    func scrape(catalog: Catalog) -> [UInt8] {
        customizations.set(to: Double(catalog.store.customizationCount))
        journalBytes.set(to: Double(catalog.store.journalBytes ?? 0))
        subscribers.set(to: Double(catalog.events.subscriberCount))
        let live = catalog.clients()
        liveVersions.withLock { gauges in
            let current = Set(live.map(\.stored.client))
            for (client, gauge) in gauges where !current.contains(client) {
                registry.unregisterGauge(gauge)
                gauges[client] = nil
            }
            for config in live {
                let client = config.stored.client
                let gauge = gauges[client] ?? registry.makeGauge(
                    name: "tabconfig_config_live_version", labels: [("client", client)], help: Self.liveVersionHelp)
                gauges[client] = gauge
                gauge.set(to: Double(config.stored.version))
            }
        }
        return registry.emitToBuffer()
    }
}
