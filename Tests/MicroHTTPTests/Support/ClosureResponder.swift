import MicroHTTP

/// A responder made of a closure, for tests.
struct ClosureResponder: Responder {
    let body: @Sendable (Request) -> Response

    init(_ body: @escaping @Sendable (Request) -> Response) {
        self.body = body
    }

    func respond(to request: Request) -> Response {
        body(request)
    }
}
