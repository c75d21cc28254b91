import Prometheus

/// The hits and misses of one of the service's caches: `tabconfig_cache_lookups_total{cache,result}`.
final class CacheLookups: Sendable {
    private let hits: Counter
    private let misses: Counter

    init(cache: String, registry: PrometheusCollectorRegistry) {
        let help = "Lookups in the service's caches (encoded answers, verified user tokens), by cache and result."
        hits = registry.makeCounter(
            descriptor: .named("tabconfig_cache_lookups_total", help: help),
            labels: [("cache", cache), ("result", "hit")])
        misses = registry.makeCounter(
            descriptor: .named("tabconfig_cache_lookups_total", help: help),
            labels: [("cache", cache), ("result", "miss")])
    }

    /// Counts one lookup.
    func record(hit: Bool) {
        (hit ? hits : misses).increment()
    }
}
