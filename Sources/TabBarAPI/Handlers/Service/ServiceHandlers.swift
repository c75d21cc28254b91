import Foundation
import MicroHTTP
import Synchronization

/// The service's own resources: the probes, the OpenAPI document, the metrics, and `OPTIONS` on any resource.
final class ServiceHandlers: Sendable {
    let catalog: Catalog
    /// The OpenAPI document, prepared once in each content coding.
    let openAPIDocument: PreparedAnswer
    /// The Prometheus series, nil when metrics are off.
    let metrics: ServiceMetrics?
    /// Which other origins' pages may call the service (the server adds the fields; preflights are refused here).
    let crossOrigin: CrossOriginPolicy
    private let shuttingDown = Mutex(false)

    init(catalog: Catalog, openAPIDocument: Data, metrics: ServiceMetrics?, crossOrigin: CrossOriginPolicy) {
        self.catalog = catalog
        self.openAPIDocument = PreparedAnswer(
            validators: CacheValidators(
                etag: EntityTag.content("o", openAPIDocument), cacheControl: "public, max-age=3600",
                variesByLanguage: false),
            body: openAPIDocument, contentType: "application/yaml")
        self.metrics = metrics
        self.crossOrigin = crossOrigin
    }

    /// Makes `/readyz` fail from now on.
    func beginShutdown() {
        shuttingDown.withLock { $0 = true }
    }

    /// `GET /healthz`: the process is alive, and which version it runs.
    func health(_ request: Request) -> Response {
        .json(ProbeBody(status: "ok", version: BuildInfo.version))
    }

    /// `GET /readyz`: the store is open and writable and the server is not shutting down.
    func readiness(_ request: Request) -> Response {
        if shuttingDown.withLock({ $0 }) {
            return .problem(.unavailable("The server is shutting down."), for: request)
        }
        if catalog.store.unavailableReason != nil {
            return .problem(.unavailable("The store does not accept writes."), for: request)
        }
        return .json(ProbeBody(status: "ready"))
    }

    /// `GET /openapi.yaml`: the spec this server implements.
    func openAPI(_ request: Request) throws -> Response {
        try openAPIDocument.answer(request)
    }

    /// `GET /metrics`: the Prometheus text format (registered only while metrics are on).
    func metricsText(_ request: Request) -> Response {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")
        headers.add(name: "Cache-Control", value: "no-store")
        return Response(status: 200, headers: headers, body: Data(metrics?.scrape(catalog: catalog) ?? []))
    }

    /// `OPTIONS` on any resource: 204 with `Allow`. A CORS preflight (an `Origin` and an
    /// `Access-Control-Request-Method`) from a page the policy does not let send that method there is refused with
    /// 403; an allowed one gets its `Access-Control-*` fields from the server (``CrossOriginPolicy``).
    func options(_ request: Request, allowed: [String], route: String?) -> Response {
        if let origin = request.headers["Origin"], let method = request.headers["Access-Control-Request-Method"],
            !crossOrigin.allows(origin: origin, method: method, route: route)
        {
            let detail = "Pages on this origin may not send \(method) requests to this resource."
            return .problem(.forbidden(detail), for: request)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Allow", value: (allowed + ["OPTIONS"]).joined(separator: ", "))
        return Response(status: 204, headers: headers)
    }
}
