import MicroHTTP
import Prometheus
import Synchronization

/// Counts every finished request by method, route pattern and status, and records its latency by method and route:
/// `http_requests_total` and `http_request_duration_seconds`. Labels come from bounded sets only: the route table's
/// patterns (`unmatched` for a path no route takes, never the path itself), the methods the service knows (`other`
/// for the rest) and the status code.
final class HTTPMetrics: RequestObserver {
    private struct Key: Hashable {
        var method: String
        var route: String
        var status: Int

        /// Hashes the lengths and the status only: the keys are few and their strings mostly share storage with the
        /// route table's, so comparing them on a collision is cheaper than hashing every byte of each request's.
        func hash(into hasher: inout Hasher) {
            hasher.combine(status)
            hasher.combine(route.utf8.count)
            hasher.combine(method.utf8.count)
        }
    }

    private struct Series: Sendable {
        let requests: Counter
        let duration: DurationHistogram
    }

    /// Latency buckets from 0.25 ms: the tab-bar reads take well under a millisecond.
    static let durationBuckets: [Duration] = [
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]

    /// The method's label: itself for the methods the service knows, else `other`.
    private static func label(method: String) -> String {
        switch method {
        case "GET", "HEAD", "PUT", "POST", "DELETE", "OPTIONS", "PATCH": method
        default: "other"
        }
    }

    private let registry: PrometheusCollectorRegistry
    private let series = Mutex<[Key: Series]>([:])

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    func requestFinished(_ request: FinishedRequest) {
        let key = Key(
            method: Self.label(method: request.method),
            route: request.route ?? "unmatched", status: request.status ?? 0)
        let found = series.withLock { $0[key] } ?? makeSeries(key)
        found.requests.increment()
        found.duration.record(request.duration)
    }

    private func makeSeries(_ key: Key) -> Series {
        let status = key.status == 0 ? "none" : String(key.status)
        let made = Series(
            requests: registry.makeCounter(
                descriptor: .named(
                    "http_requests_total",
                    help: "HTTP requests by method, route pattern and status (none: ended before a response)."),
                labels: [("method", key.method), ("route", key.route), ("status", status)]),
            duration: registry.makeDurationHistogram(
                descriptor: .named(
                    "http_request_duration_seconds",
                    help: "Time from a request's head to the end of its response, by method and route pattern."),
                labels: [("method", key.method), ("route", key.route)], buckets: Self.durationBuckets))
        return series.withLock { all in
            if let existing = all[key] { return existing }
            all[key] = made
            return made
        }
    }
}
