/// Which web pages on other origins may read the server's responses (CORS, as the Fetch standard defines it): the
/// server adds the `Access-Control-*` fields to every response and to the answers of preflight requests.
///
/// An origin in ``origins`` may use every route; with ``anyOriginForPublicRoutes``, any origin may `GET` and `HEAD`
/// the ``publicRoutes`` (answered `Access-Control-Allow-Origin: *`, on every response of those routes, so that a
/// shared cache can hand one answer to every page). Responses that name one origin say `Vary: Origin`, on every
/// response of a route that may name one, for the same reason.
public struct CrossOriginPolicy: Sendable, Equatable {
    /// Origins allowed on every route, as browsers send them (`https://app.example.com`, no trailing slash).
    public var origins: Set<String> = []
    /// Whether any origin may read the ``publicRoutes``.
    public var anyOriginForPublicRoutes = false
    /// Route patterns (``Router`` patterns) any origin may read when ``anyOriginForPublicRoutes`` is set.
    public var publicRoutes: Set<String> = []
    /// Response fields a page may read besides the CORS-safelisted ones.
    public var exposedHeaders = ["ETag", "Location", "Retry-After", RequestIdentifier.headerName]
    /// Request fields a page may send, as answered to a preflight.
    public var allowedHeaders = [
        "Authorization", "Content-Type", "If-Match", "If-None-Match", "Accept-Language", "Last-Event-ID",
        RequestIdentifier.headerName,
    ]
    /// Seconds a browser may keep a preflight's answer.
    public var maxAge = 600

    /// Creates a policy allowing no origin.
    public init() {}

    /// Whether the policy allows any cross-origin read at all.
    public var isEnabled: Bool {
        !origins.isEmpty || anyOriginForPublicRoutes
    }

    /// Whether a page on `origin` may send `method` to the route `route`.
    public func allows(origin: String, method: String, route: String?) -> Bool {
        origins.contains(origin) || isPublic(method: method, route: route)
    }

    private func isPublic(method: String, route: String?) -> Bool {
        guard anyOriginForPublicRoutes, let route, method == "GET" || method == "HEAD" else { return false }
        return publicRoutes.contains(route)
    }

    /// The fields to add to a response to `method` on `route` from a page on `origin` (nil: no `Origin` sent).
    /// `preflight`: the method and the `Allow` list of an `OPTIONS` preflight's answer.
    func headers(
        origin: String?, method: String, route: String?, preflight: (method: String, allow: String)?
    ) -> [(String, String)] {
        var fields: [(String, String)] = []
        let requested = preflight?.method ?? method
        if isPublic(method: requested, route: route) {
            fields.append(("Access-Control-Allow-Origin", "*"))
        } else if !origins.isEmpty {
            fields.append(("Vary", "Origin"))
            guard let origin, origins.contains(origin) else { return fields }
            fields.append(("Access-Control-Allow-Origin", origin))
        } else {
            return fields
        }
        if let preflight {
            fields.append(("Access-Control-Allow-Methods", preflight.allow))
            fields.append(("Access-Control-Allow-Headers", allowedHeaders.joined(separator: ", ")))
            fields.append(("Access-Control-Max-Age", String(maxAge)))
        } else {
            fields.append(("Access-Control-Expose-Headers", exposedHeaders.joined(separator: ", ")))
        }
        return fields
    }
}
