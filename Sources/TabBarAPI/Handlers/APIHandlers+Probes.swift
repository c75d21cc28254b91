import Foundation
import MicroHTTP

extension APIHandlers {
    /// `GET /healthz`: the process is alive, and which version it runs.
    func health(_ request: Request) -> Response {
        .json(ProbeBody(status: "ok", version: BuildInfo.version))
    }

    /// `GET /readyz`: the store is open and writable and the server is not shutting down.
    func readiness(_ request: Request) -> Response {
        if isShuttingDown {
            return .problem(.unavailable("The server is shutting down."), for: request)
        }
        if store.unavailableReason != nil {
            return .problem(.unavailable("The store does not accept writes."), for: request)
        }
        return .json(ProbeBody(status: "ready"))
    }

    /// `GET /openapi.yaml`: the spec this server implements.
    func openAPI(_ request: Request) -> Response {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/yaml")
        headers.add(name: "Cache-Control", value: "public, max-age=3600")
        return Response(status: 200, headers: headers, body: openAPIDocument)
    }

    /// `GET /metrics`: the Prometheus text format (registered only while metrics are on).
    func metricsText(_ request: Request) -> Response {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")
        headers.add(name: "Cache-Control", value: "no-store")
        return Response(status: 200, headers: headers, body: Data(metrics?.scrape(catalog: catalog) ?? []))
    }
}
