import Foundation

/// Turns requests into responses; the server calls it on its worker threads.
public protocol Responder: Sendable {
    /// Answers one complete request. Called on a server worker thread; may block (e.g. waiting for a durable write).
    func respond(to request: consuming Request) -> Response
    /// Answers a request the server refused before the handler ran (body too large, ...). `request.body` is empty.
    func respond(to rejection: Rejection, for request: Request) -> Response
    /// The answer to a GET or HEAD without a body, decided from its head alone (often a ``PreparedResponse``), or
    /// nil to build the ``Request`` and call ``respond(to:)`` as usual. It must be what ``respond(to:)`` would
    /// answer, and neither streamed nor deferred. Called on a worker thread once the head has arrived; must not block.
    func headAnswer(to head: RequestHead) -> Response?
    /// The name of the endpoint a request goes to (a route pattern such as `/v1/clients/{client}/tabs`), for the
    /// access log; nil when none.
    func route(method: String, path: String) -> String?
}

extension Responder {
    /// No request is answered from its head alone.
    public func headAnswer(to head: RequestHead) -> Response? {
        nil
    }

    /// No request has a route name.
    public func route(method: String, path: String) -> String? {
        nil
    }

    /// Answers with `rejection.status` and its reason as a plain-text body.
    public func respond(to rejection: Rejection, for request: Request) -> Response {
        Response(
            status: rejection.status,
            headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Data((rejection.reason + "\n").utf8)
        )
    }
}
