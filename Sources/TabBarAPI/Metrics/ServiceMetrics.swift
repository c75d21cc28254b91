import MicroHTTP
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
    private let compressedBodies: [(Compression.Effort, Gauge)]
    private let liveVersions = Mutex<[String: Gauge]>([:])
    private let rollouts: [(RolloutState.Phase, Gauge)]
    private let rollbacks: Counter
    private let reportsCounted: Counter
    private let reportsRefused: Counter

    private static let liveVersionHelp = "The live config version of each client."
    private static let authFailureHelp = "Requests refused for their credentials, by who (admin, user) and reason."

    init() {
        http = HTTPMetrics(registry: registry)
        answerCache = CacheLookups(cache: "encoded_answers", registry: registry)
        tokenCache = CacheLookups(cache: "user_tokens", registry: registry)
        storeInstruments = StoreInstruments(
            commitDuration: registry.makeDurationHistogram(
                descriptor: .named(
                    "tabconfig_store_commit_duration_seconds",
                    help: "Time for a commit of tab-order writes to become durable (journal write and fsync, or a "
                        + "transaction)."),
                buckets: HTTPMetrics.durationBuckets),
            commitBatchSize: registry.makeValueHistogram(
                descriptor: .named(
                    "tabconfig_store_commit_batch_size", help: "Tab-order writes made durable by one commit."),
                buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]))
        customizations = registry.makeGauge(
            descriptor: .named("tabconfig_customizations", help: "Users' stored tab orders, over all clients."))
        journalBytes = registry.makeGauge(
            descriptor: .named(
                "tabconfig_store_journal_bytes",
                help: "Size of the file store's customizations journal (0 on PostgreSQL)."))
        subscribers = registry.makeGauge(
            descriptor: .named("tabconfig_event_subscribers", help: "Open event streams of this process."))
        compressedBodies = Compression.Effort.allCases.map { [registry] effort in
            let gauge = registry.makeGauge(
                descriptor: .named(
                    "tabconfig_compressed_bodies",
                    help: "Bodies this process compressed, by effort: the gzip and brotli forms of prepared answers, "
                        + "fast when a request first needs an answer, best off the requests' threads."),
                labels: [("effort", effort.rawValue)])
            return (effort, gauge)
        }
        rollouts = RolloutState.Phase.allCases.map { [registry] phase in
            let gauge = registry.makeGauge(
                descriptor: .named(
                    "tabconfig_rollouts", help: "Staged rollouts of the live configs, by state (running, paused, …)."),
                labels: [("state", phase.rawValue)])
            return (phase, gauge)
        }
        rollbacks = registry.makeCounter(
            descriptor: .named(
                "tabconfig_rollout_rollbacks_total",
                help: "Staged rollouts rolled back by this process: by their guard, or by a person."))
        let reportsHelp = "Tabs of apps' open reports: counted (a running staged rollout of the live version) or refused "
            + "(a body that is not a report)."
        reportsCounted = registry.makeCounter(
            descriptor: .named("tabconfig_reports_total", help: reportsHelp), labels: [("result", "counted")])
        reportsRefused = registry.makeCounter(
            descriptor: .named("tabconfig_reports_total", help: reportsHelp), labels: [("result", "refused")])
        registry.makeGauge(
            descriptor: .named("tabconfig_build_info", help: "The running build; always 1."),
            labels: [("version", BuildInfo.version)]
        ).set(to: 1)
    }

    /// Counts a staged rollout rolled back.
    func rolledBack() {
        rollbacks.increment()
    }

    /// Counts a report's tabs: `counted` of them counted, or the whole report refused.
    func reported(counted: Int, refused: Bool) {
        if refused {
            reportsRefused.increment()
        } else if counted > 0 {
            reportsCounted.increment(by: Int64(counted))
        }
    }

    /// Counts a request refused for its credentials.
    func authenticationFailed(who: String, reason: String) {
        registry.makeCounter(
            descriptor: .named("tabconfig_auth_failures_total", help: Self.authFailureHelp),
            labels: [("who", who), ("reason", reason)]
        ).increment()
    }

    /// Counts a reload of the admin keys file (SIGHUP) by its outcome.
    func adminKeysReloaded(succeeded: Bool) {
        registry.makeCounter(
            descriptor: .named(
                "tabconfig_admin_key_reloads_total",
                help: "Reloads of the admin keys file, by result (failed: the keys in force stayed)."),
            labels: [("result", succeeded ? "ok" : "failed")]
        ).increment()
    }

    /// The text format of every series, with the gauges of state read now.
    func scrape(catalog: Catalog) -> [UInt8] {
        customizations.set(to: Double(catalog.store.customizationCount))
        journalBytes.set(to: Double(catalog.store.journalBytes ?? 0))
        subscribers.set(to: Double(catalog.events.subscriberCount))
        for (effort, gauge) in compressedBodies {
            gauge.set(to: Double(Compression.compressedBodies(effort)))
        }
        let states = catalog.clients().flatMap { $0.rollouts.values }
        for (phase, gauge) in rollouts {
            gauge.set(to: Double(states.filter { $0.phase == phase }.count))
        }
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
                    descriptor: .named("tabconfig_config_live_version", help: Self.liveVersionHelp),
                    labels: [("client", client)])
                gauges[client] = gauge
                gauge.set(to: Double(config.stored.version))
            }
        }
        return registry.emitToBuffer()
    }
}

extension MetricNameDescriptor {
    /// The series `name` as Prometheus shows it (unit suffix included) with its HELP text.
    static func named(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
