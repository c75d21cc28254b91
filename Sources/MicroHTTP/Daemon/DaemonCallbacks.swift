internal import CMicroHTTPD
import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The C callbacks given to libmicrohttpd. Each finds its ``ServerContext`` through the `cls` pointer.
/// No Swift error can escape them: they call only non-throwing code.
enum DaemonCallbacks {
    /// Called first with the request head, then once per body chunk, then a last time with no data.
    static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadDataSize, conCls in
        guard let cls, let connection, let url, let uploadDataSize, let conCls else {
            return .NO
        }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        guard let existing = conCls.pointee else {
            context.deadlines.headReceived(context: CMicroHTTPD_socket_context(connection))
            let framing = RequestFraming(connection: connection)
            let pathOffset = RequestTarget.pathOffset(url)
            let requestID = context.requestIDs.id(
                clientValue: RequestHead.lookup("X-Request-Id", kind: .HEADER_KIND, on: connection))
            if let rejection = framing.rejection(version: version) ?? (pathOffset == nil ? .invalidTarget : nil) {
                let state = RequestState(
                    request: Request(method: method.map(methodName) ?? "", path: String(cString: url)),
                    requestID: requestID)
                readOrigin(state, on: connection, context: context)
                return reject(state, rejection, on: connection, conCls: conCls, context: context)
            }
            let path = url + (pathOffset ?? 0)
            let answer = framing.hasBody ? nil : headAnswer(connection: connection, path: path, method: method, context: context)
            // A request answered from its head keeps only its method and path, for the log.
            let state = RequestState(
                request: answer == nil
                    ? makeRequest(connection: connection, path: path, method: method)
                    : Request(method: method.map(methodName) ?? "", path: RequestTarget.path(path)),
                requestID: requestID)
            state.headAnswer = answer
            if let answer { state.noteRoute(of: answer) }
            readOrigin(state, on: connection, context: context)
            if answer == nil, let length = framing.contentLength, context.exceedsLimit(contentLength: String(cString: length)) {
                return reject(state, .payloadTooLarge(limit: context.maxBodySize), on: connection, conCls: conCls, context: context)
            }
            conCls.pointee = Unmanaged.passRetained(state).toOpaque()
            context.inFlight.add(1, ordering: .relaxed)
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            return receive(uploadData, count: size, into: state, context: context)
        }
        if state.responded {
            if let deferred = state.deferred, let response = deferred.take() {
                context.deferrals.remove(deferred)
                state.deferred = nil
                return queue(response, for: state, on: connection, context: context)
            }
            return .YES
        }
        state.responded = true
        if let answer = state.headAnswer {
            return queue(answer, for: state, on: connection, context: context)
        }
        return queue(context.answer(state), for: state, on: connection, context: context)
    }

    /// Answers a request refused from its head and closes the connection after the answer: libmicrohttpd then reads
    /// none of its body, so no byte of it can be taken for a next request.
    private static func reject(
        _ state: RequestState,
        _ rejection: Rejection,
        on connection: OpaquePointer,
        conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
        context: ServerContext
    ) -> MHD_Result {
        state.rejection = rejection
        state.responded = true
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
        context.inFlight.add(1, ordering: .relaxed)
        var response = context.answer(state)
        response.headers.replaceOrAdd(name: "Connection", value: "close")
        return queue(response, for: state, on: connection, context: context)
    }

    /// Keeps the request's `Origin` for the cross-origin fields, when a policy is enabled.
    private static func readOrigin(_ state: RequestState, on connection: OpaquePointer, context: ServerContext) {
        guard context.crossOrigin.isEnabled else { return }
        state.origin = RequestHead.lookup("Origin", kind: .HEADER_KIND, on: connection)
    }

    /// Frees the per-request state once libmicrohttpd is done with the request, however it ended, and writes its
    /// access-log line.
    static let completed: MHD_RequestCompletedCallback = { cls, connection, conCls, termination in
        guard let cls else {
            return
        }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        let now = ContinuousClock.now
        if let connection {
            context.deadlines.requestFinished(context: CMicroHTTPD_socket_context(connection), at: now)
        }
        guard let conCls, let existing = conCls.pointee else {
            return
        }
        conCls.pointee = nil
        let state = Unmanaged<RequestState>.fromOpaque(existing).takeRetainedValue()
        if let stream = state.stream {
            context.streams.remove(stream)
            stream.detach()
        }
        if let deferred = state.deferred {
            context.deferrals.remove(deferred)
        }
        context.inFlight.subtract(1, ordering: .relaxed)
        let completed = termination == .REQUEST_TERMINATED_COMPLETED_OK
        if let feed = state.streamConnection {
            state.bytesSent = feed.bytesRead
            state.streamConnection = nil
        }
        let duration = now - state.started
        if let observer = context.requestObserver {
            observer.requestFinished(
                FinishedRequest(
                    method: state.request.method, route: state.route(context.responder), status: state.status,
                    duration: duration, bytes: state.bytesSent, completed: completed))
        }
        if let accessLog = context.accessLog {
            accessLog.record(
                state, route: state.route(context.responder), duration: duration,
                outcome: completed ? nil : describe(termination))
        } else if !completed {
            context.logger.debug(
                "request ended early",
                metadata: [
                    "method": "\(state.request.method)",
                    "path": "\(state.request.path)",
                    "reason": "\(describe(termination))",
                ]
            )
        }
    }

    /// Registers each connection with the request-head deadlines when it opens and removes it when it closes.
    /// The connection's deadline entry is kept in its socket context.
    static let connectionEvent: MHD_NotifyConnectionCallback = { cls, connection, socketContext, event in
        guard let cls, let connection, let socketContext else {
            return
        }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        switch event {
        case .CONNECTION_NOTIFY_STARTED:
            socketContext.pointee = context.deadlines.opened(connection, descriptor: CMicroHTTPD_connection_fd(connection))
        case .CONNECTION_NOTIFY_CLOSED:
            context.deadlines.closed(connection, context: socketContext.pointee)
            socketContext.pointee = nil
        @unknown default:
            break
        }
    }

    private static func describe(_ termination: MHD_RequestTerminationCode) -> String {
        switch termination {
        case .REQUEST_TERMINATED_COMPLETED_OK: "completed"
        case .REQUEST_TERMINATED_WITH_ERROR: "error"
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: "timeout"
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: "server shutdown"
        case .REQUEST_TERMINATED_READ_ERROR: "read error"
        case .REQUEST_TERMINATED_CLIENT_ABORT: "client closed the connection"
        @unknown default: "code \(termination.rawValue)"
        }
    }

    /// Forwards libmicrohttpd's own messages to the logger at debug level.
    static let log: MHD_LogCallback = { cls, format, arguments in
        guard let cls, let format, let arguments else {
            return
        }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        var buffer = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        context.lastDaemonMessage.withLock { $0 = message }
        context.logger.debug("libmicrohttpd: \(message)")
    }

    /// Appends a body chunk, or counts it once the body is over the limit.
    private static func receive(
        _ data: UnsafePointer<CChar>?,
        count: Int,
        into state: RequestState,
        context: ServerContext
    ) -> MHD_Result {
        if state.responded {
            return .YES
        }
        if state.rejection != nil {
            state.discardedBytes += count
            if state.discardedBytes > context.discardLimit {
                context.logger.debug("closing a connection that keeps sending an oversized body")
                return .NO
            }
            return .YES
        }
        if count > context.maxBodySize - state.request.body.count {
            state.rejection = .payloadTooLarge(limit: context.maxBodySize)
            state.discardedBytes = state.request.body.count + count
            state.request.body = Data()
            return .YES
        }
        if let data {
            data.withMemoryRebound(to: UInt8.self, capacity: count) { state.request.body.append($0, count: count) }
        }
        return .YES
    }

    /// Builds and queues the libmicrohttpd response for `response`.
    private static func queue(
        _ response: Response,
        for state: RequestState,
        on connection: OpaquePointer,
        context: ServerContext
    ) -> MHD_Result {
        if let deferred = response.deferred {
            return suspend(until: deferred, for: state, on: connection, context: context)
        }
        var status = response.status
        if !(200...599).contains(status) {
            context.logger.error("responder returned an invalid status; answering 500", metadata: ["status": "\(status)"])
            status = 500
        }
        state.status = status
        let hasBody = status != 204 && status != 304
        let sendsBody = hasBody && state.request.method != "HEAD"
        if let prepared = response.prepared, status == response.status {
            guard let created = prepared.makeResponse() else {
                context.logger.error("libmicrohttpd could not create a response")
                return .NO
            }
            state.prepared = prepared
            state.bytesSent = sendsBody ? prepared.body.count : 0
            return send(
                created, status: status, headers: response.headers, for: state, on: connection, context: context)
        }
        // libmicrohttpd 0.9.75 sends the last-chunk marker after the head of a chunked HEAD response, which would
        // corrupt the next response on the connection: a HEAD gets the head of an empty body instead.
        if let stream = response.stream, sendsBody {
            let feed = StreamConnection(stream: stream, connection: connection)
            guard stream.attach(resume: feed.resume) else {
                state.status = 500
                context.logger.error("a response stream was returned for a second response; answering 500")
                return queueBuffer(Data(), status: 500, headers: [:], for: state, on: connection, context: context)
            }
            guard let created = makeStreamResponse(feed, for: state, context: context) else {
                return .NO
            }
            return send(created, status: status, headers: response.headers, for: state, on: connection, context: context)
        }
        response.stream?.finish()
        state.bytesSent = sendsBody ? response.body.count : 0
        return queueBuffer(
            hasBody ? response.body : Data(), status: status, headers: response.headers, for: state, on: connection,
            context: context)
    }

    /// Suspends the connection until `deferred` is completed; the access handler, called again on resume, sends it.
    private static func suspend(
        until deferred: DeferredResponse,
        for state: RequestState,
        on connection: OpaquePointer,
        context: ServerContext
    ) -> MHD_Result {
        guard context.deferrals.add(deferred) else {
            state.status = 503
            return queueBuffer(
                Data(), status: 503, headers: ["Connection": "close"], for: state, on: connection, context: context)
        }
        state.deferred = deferred
        MHD_suspend_connection(connection)
        let handle = StreamConnection.Handle(pointer: connection)
        deferred.attach { MHD_resume_connection(handle.pointer) }
        return .YES
    }

    /// Queues a response whose whole body is `body`.
    private static func queueBuffer(
        _ body: Data,
        status: Int,
        headers: HTTPHeaders,
        for state: RequestState,
        on connection: OpaquePointer,
        context: ServerContext
    ) -> MHD_Result {
        let created = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else {
            context.logger.error("libmicrohttpd could not create a response")
            return .NO
        }
        return send(created, status: status, headers: headers, for: state, on: connection, context: context)
    }

    /// Adds the header fields to `created` (the C strings made once when `state` sends a prepared response), then
    /// those the server adds to every response (the request id, the cross-origin fields), queues it, and releases
    /// this reference to it.
    private static func send(
        _ created: OpaquePointer,
        status: Int,
        headers: HTTPHeaders,
        for state: RequestState,
        on connection: OpaquePointer,
        context: ServerContext
    ) -> MHD_Result {
        defer { MHD_destroy_response(created) }
        if let prepared = state.prepared {
            for (name, value) in prepared.fields {
                name.withUnsafeBufferPointer { name in
                    value.withUnsafeBufferPointer { value in
                        add(name.baseAddress!, value.baseAddress!, to: created, context: context)
                    }
                }
            }
        } else {
            for (name, value) in headers where !isManaged(name) {
                add(name, value, to: created, context: context)
            }
        }
        add(RequestIdentifier.headerName, state.requestID, to: created, context: context)
        if context.crossOrigin.isEnabled {
            for (name, value) in crossOriginFields(state, headers: headers, context: context) {
                add(name, value, to: created, context: context)
            }
        }
        if context.draining.load(ordering: .relaxed), headers["Connection"] == nil {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        return MHD_queue_response(connection, UInt32(status), created)
    }

    /// Adds one field (passed as C strings explicitly: the implicit conversion of a short `String` allocates).
    private static func add(_ name: String, _ value: String, to response: OpaquePointer, context: ServerContext) {
        name.withCString { name in
            value.withCString { value in add(name, value, to: response, context: context) }
        }
    }

    private static func add(
        _ name: UnsafePointer<CChar>, _ value: UnsafePointer<CChar>, to response: OpaquePointer, context: ServerContext
    ) {
        if MHD_add_response_header(response, name, value) == .NO {
            context.logger.debug(
                "libmicrohttpd refused a response header", metadata: ["name": "\(String(cString: name))"])
        }
    }

    /// The cross-origin fields of the answer to `state`'s request; an `OPTIONS` request naming a method to ask for
    /// is a preflight, answered with the methods of the response's `Allow`.
    private static func crossOriginFields(
        _ state: RequestState, headers: HTTPHeaders, context: ServerContext
    ) -> [(String, String)] {
        let request = state.request
        var preflight: (method: String, allow: String)?
        if request.method == "OPTIONS", state.origin != nil,
            let method = request.headers["Access-Control-Request-Method"], let allow = headers["Allow"]
        {
            preflight = (method, allow)
        }
        return context.crossOrigin.headers(
            origin: state.origin, method: request.method, route: state.route(context.responder), preflight: preflight)
    }

    /// Whether libmicrohttpd writes the header field `name` itself from the body it sends.
    static func isManaged(_ name: String) -> Bool {
        HTTPHeaders.same(name, "Content-Length") || HTTPHeaders.same(name, "Transfer-Encoding")
    }

    private static func makeRequest(
        connection: OpaquePointer,
        path: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>?
    ) -> Request {
        var request = Request(
            method: method.map(methodName) ?? "",
            path: RequestTarget.path(path),
            queryItems: values(connection, kind: .GET_ARGUMENT_KIND, expected: 0),
            headers: HTTPHeaders(fields: values(connection, kind: .HEADER_KIND, expected: 8))
        )
        if let address = CMicroHTTPD_client_address(connection) {
            request.remoteAddress = SocketAddress.host(of: address)
        }
        return request
    }

    /// The responder's answer from the request head, for a GET or HEAD without a body while not draining; a streamed
    /// or deferred one is not taken (those need the request's state from the start).
    private static func headAnswer(
        connection: OpaquePointer, path: UnsafePointer<CChar>, method: UnsafePointer<CChar>?, context: ServerContext
    ) -> Response? {
        guard let method, !context.draining.load(ordering: .relaxed) else {
            return nil
        }
        let name = methodName(method)
        guard name == "GET" || name == "HEAD" else {
            return nil
        }
        guard let answer = context.responder.headAnswer(to: RequestHead(method: name, connection: connection, path: path)),
            answer.stream == nil, answer.deferred == nil
        else {
            return nil
        }
        return answer
    }

    /// The method as a string literal for the common ones (no allocation), else a copy of the C string.
    private static func methodName(_ method: UnsafePointer<CChar>) -> String {
        for (name, literal) in knownMethods {
            let same = literal.utf8Start.withMemoryRebound(to: CChar.self, capacity: literal.utf8CodeUnitCount + 1) {
                strcmp(method, $0) == 0
            }
            if same { return name }
        }
        return String(cString: method)
    }

    /// The common methods, each with a C string to compare with (passing a short `String` to C would copy it).
    private static let knownMethods: [(String, StaticString)] = [
        ("GET", "GET"), ("PUT", "PUT"), ("HEAD", "HEAD"), ("POST", "POST"), ("DELETE", "DELETE"),
    ]

    /// Every value of `kind` on the connection, in order, as name-value pairs (`expected`: the capacity to reserve).
    static func values(
        _ connection: OpaquePointer, kind: MHD_ValueKind, expected: Int
    ) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        pairs.reserveCapacity(expected)
        forEachValue(connection, kind: kind) { name, value in
            pairs.append((name, value))
            return true
        }
        return pairs
    }

    /// Calls `body` with each value of `kind` on the connection in order ("" for one without a value), until it
    /// returns false.
    static func forEachValue(
        _ connection: OpaquePointer, kind: MHD_ValueKind, _ body: (_ name: String, _ value: String) -> Bool
    ) {
        withoutActuallyEscaping(body) { body in
            var body = body
            withUnsafeMutablePointer(to: &body) { pointer in
                _ = MHD_get_connection_values(connection, kind, visitValue, pointer)
            }
        }
    }

    /// Hands one value to the closure `cls` points to, for the duration of one `MHD_get_connection_values` call.
    private static let visitValue: MHD_KeyValueIterator = { cls, _, key, value in
        guard let cls, let key else {
            return .YES
        }
        let body = cls.assumingMemoryBound(to: ((String, String) -> Bool).self).pointee
        return body(String(cString: key), value.map { String(cString: $0) } ?? "") ? .YES : .NO
    }
}
