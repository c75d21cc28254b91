import MicroHTTP

extension APIHandlers {
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
