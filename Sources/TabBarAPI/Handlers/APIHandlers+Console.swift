import MicroHTTP

extension APIHandlers {
    /// `GET /admin/` and `GET /admin/{file}`: the admin console's files (`AdminConsole`).
    func consoleFile(_ request: Request) throws -> Response {
        let name = request.pathParameters["file"] ?? AdminConsole.indexFile
        guard let console, let response = console.response(for: name, ifNoneMatch: request.headers["If-None-Match"])
        else {
            throw APIError.notFound("The admin console has no file '\(name)'.")
        }
        return response
    }

    /// `GET /admin`: a permanent redirect to `/admin/`, so that the page's relative links resolve under it.
    func consoleRedirect(_ request: Request) -> Response {
        var headers = HTTPHeaders()
        headers.add(name: "Location", value: "/admin/")
        headers.add(name: "Cache-Control", value: "no-cache")
        return Response(status: 301, headers: headers)
    }
}
