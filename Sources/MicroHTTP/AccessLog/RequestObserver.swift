/// Told about every request when it ends (a stream or a deferred answer when it ends too), on the thread that
/// served it: for metrics. Must not block.
public protocol RequestObserver: Sendable {
    /// Called once per request, after its response was sent or the request ended otherwise.
    func requestFinished(_ request: FinishedRequest)
}

/// What a ``RequestObserver`` learns about a request that ended.
public struct FinishedRequest: Sendable {
    /// The method as sent.
    public var method: String
    /// The route pattern the responder named (``Responder/route(method:path:)``), nil when none matched.
    public var route: String?
    /// The status sent, nil when the request ended before a response was queued.
    public var status: Int?
    /// From the request head's arrival to the end.
    public var duration: Duration
    /// The body bytes sent.
    public var bytes: Int
    /// Whether the response went out whole (false: the client went away, a timeout, a shutdown).
    public var completed: Bool
}
