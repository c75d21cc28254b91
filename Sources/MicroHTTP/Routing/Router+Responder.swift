import Foundation

extension Router: Responder {
    /// Routes the request: the matched handler answers, with `pathParameters` set;
    /// otherwise a plain-text 404, or 405 with an `Allow` header.
    public func respond(to request: consuming Request) -> Response {
        switch match(method: request.method, path: request.path) {
        case .found(let handler, let parameters):
            var routed = request
            routed.pathParameters = parameters
            return handler(routed)
        case .methodNotAllowed(let allowed):
            return Response(
                status: 405,
                headers: ["Allow": allowed.joined(separator: ", "), "Content-Type": "text/plain; charset=utf-8"],
                body: Data("Method not allowed.\n".utf8)
            )
        case .notFound:
            return Response(
                status: 404,
                headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: Data("Not found.\n".utf8)
            )
        }
    }
}
