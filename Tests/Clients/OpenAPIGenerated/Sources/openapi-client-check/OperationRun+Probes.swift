import OpenAPIRuntime

/// `/healthz`, `/readyz`, `/openapi.yaml` and `/metrics`.
extension OperationRun {
    func probes() async {
        await checklist.call("health", "200") {
            let probe = try await client.health().ok.body.json
            try CheckFailure.expect(probe.status == .ok, "status \(probe.status)")
            return "status \(probe.status.rawValue), version \(probe.version ?? "none")"
        }
        await checklist.call("readiness", "200") {
            let probe = try await client.readiness().ok.body.json
            try CheckFailure.expect(probe.status == .ready, "status \(probe.status)")
            return "status \(probe.status.rawValue)"
        }
        await checklist.call("openapi", "200 application/yaml") {
            let text = try await String(collecting: client.openapi().ok.body.yaml, upTo: 1 << 22)
            try CheckFailure.expect(text.hasPrefix("openapi: 3.1"), "not an OpenAPI 3.1 document")
            return "\(text.utf8.count) bytes"
        }
        await checklist.call("getMetrics", "200 text/plain") {
            let text = try await String(collecting: client.getMetrics().ok.body.plainText, upTo: 1 << 22)
            try CheckFailure.expect(text.contains("http_requests_total"), "no http_requests_total")
            return "\(text.split(separator: "\n").count) lines"
        }
    }
}
