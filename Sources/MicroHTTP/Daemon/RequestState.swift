import Foundation

/// What the server keeps about one request between access-handler calls.
///
/// Owned by libmicrohttpd's per-request pointer (retained there) from the first access-handler call until the
/// completion callback; only the thread serving the connection touches it.
final class RequestState {
    /// The request, its body appended as it arrives.
    var request: Request
    var rejection: Rejection?
    var discardedBytes = 0
    var responded = false
    /// The stream of the streamed response being sent, closed when the request completes.
    var stream: ResponseStream?
    /// The deferred response the suspended connection waits for.
    var deferred: DeferredResponse?
    /// The answer the responder gave from the request head, sent once the request is complete.
    var headAnswer: Response?
    /// When the request head arrived, for the access log.
    let started = ContinuousClock.now
    /// The status queued for the response, once one is.
    var status: Int?
    /// The request's id (``RequestIdentifier``), echoed in the response and named by the access log.
    let requestID: String
    /// The `Origin` field of the request head, read when a ``CrossOriginPolicy`` is enabled.
    var origin: String?
    /// The body bytes sent: the whole body, or what a stream handed libmicrohttpd.
    var bytesSent = 0
    /// The prepared response being sent, kept until the request completes: libmicrohttpd sends its bytes uncopied.
    var prepared: PreparedResponse?
    /// The stream being sent, for its byte count.
    var streamConnection: StreamConnection?
    private var routeLookup: String??

    init(request: Request, requestID: String) {
        self.request = request
        self.request.requestID = requestID
        self.requestID = requestID
    }

    /// Takes the route of a ``Router``'s head answer, so that ``route(_:)`` does not look it up again.
    func noteRoute(of answer: Response) {
        if let route = answer.route { routeLookup = .some(route) }
    }

    /// The route pattern the responder names for the request, looked up once.
    func route(_ responder: any Responder) -> String? {
        if let routeLookup { return routeLookup }
        let route = responder.route(method: request.method, path: request.path)
        routeLookup = .some(route)
        return route
    }
}
