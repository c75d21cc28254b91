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
    /// The request id the access log names it by; nil while access logging is off.
    var requestID: String?

    init(request: Request) {
        self.request = request
    }
}
