import Prometheus

extension MetricNameDescriptor {
    /// The series `name` as Prometheus shows it (unit suffix included) with its HELP text.
    static func named(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
