import Foundation

/// Maps a method and a path to a handler, capturing `{name}` path segments.
public struct Router: Sendable {
    /// Answers one routed request.
    public typealias Handler = @Sendable (Request) -> Response
    /// Answers a GET or HEAD of the route from its head alone, or nil to leave it to the ``Handler``; it must answer
    /// what the handler would (see ``Responder/headAnswer(to:)``).
    public typealias HeadHandler = @Sendable (RequestHead, PathParameters) -> Response?

    /// The result of ``match(method:path:)``.
    public enum Match: Sendable {
        /// A route matched; `parameters` holds the captured path segments.
        case found(Handler, parameters: PathParameters)
        /// The path matched a route, but not for this method; `allowed` is sorted.
        case methodNotAllowed(allowed: [String])
        /// No route has this path.
        case notFound
    }

    private enum Segment: Sendable, Equatable {
        case literal([UInt8])
        case parameter(String)
    }

    private struct Route: Sendable {
        var method: String
        var pattern: String
        var segments: [Segment]
        var handler: Handler
        var head: HeadHandler?
    }

    private var routes: [Route] = []
    /// The indices of the routes by their number of segments, in the order added: a path is only walked against
    /// the routes it could match.
    private var bySegmentCount: [[Int]] = []

    /// Creates a router with no routes.
    public init() {}

    /// Pattern segments like "/v1/clients/{client}/tabs"; `{name}` matches exactly one non-empty path segment.
    /// When several routes match the same request, the one added first wins. A GET route may have a `head`
    /// handler: ``headAnswer(to:)`` calls it for the route's requests before any ``Request`` is built.
    public mutating func add(_ method: String, _ pattern: String, head: HeadHandler? = nil, _ handler: @escaping Handler) {
        let trimmed = pattern.hasPrefix("/") ? pattern.dropFirst() : Substring(pattern)
        let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false).map { part -> Segment in
            if part.count > 2, part.hasPrefix("{"), part.hasSuffix("}") {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(Array(part.utf8))
        }
        while bySegmentCount.count <= segments.count { bySegmentCount.append([]) }
        bySegmentCount[segments.count].append(routes.count)
        routes.append(Route(method: method, pattern: pattern, segments: segments, handler: handler, head: head))
    }

    /// HEAD matches GET routes. `allowed` is sorted and includes HEAD when GET is allowed.
    public func match(method: String, path: String) -> Match {
        var path = path
        return path.withUTF8 { path in
            switch lookup(method: method, path: path) {
            case .route(let index):
                return .found(routes[index].handler, parameters: Self.parameters(of: routes[index].segments, in: path))
            case .otherMethods:
                var allowed = Set(routes.filter { Self.walk($0.segments, path) }.map(\.method))
                if allowed.contains("GET") {
                    allowed.insert("HEAD")
                }
                return .methodNotAllowed(allowed: allowed.sorted())
            case .none:
                return .notFound
            }
        }
    }

    /// The answer of the matched route's head handler, for a GET or HEAD; nil when the route has none (or no route
    /// matches), which leaves the request to ``match(method:path:)``.
    public func headAnswer(to head: RequestHead) -> Response? {
        head.withPath { path in
            guard case .route(let index) = lookup(method: head.method, path: path), let answer = routes[index].head
            else {
                return nil
            }
            var response = answer(head, Self.parameters(of: routes[index].segments, in: path))
            response?.route = routes[index].pattern
            return response
        }
    }

    /// The pattern of the route `match(method:path:)` picks, or of the first route with this path when none has the
    /// method (a 405); nil when no route has the path. For logs: it names the endpoint without the ids in the path.
    public func route(method: String, path: String) -> String? {
        var path = path
        return path.withUTF8 { path in
            switch lookup(method: method, path: path) {
            case .route(let index), .otherMethods(first: let index): routes[index].pattern
            case .none: nil
            }
        }
    }

    /// A route found by ``lookup(method:path:)``, by its index in `routes`.
    private enum Lookup {
        case route(Int)
        case otherMethods(first: Int)
        case none
    }

    /// The route for the method and path (a HEAD takes the first GET route when no route is for HEAD itself), on
    /// the path's bytes: no segment array is built, and only routes with the path's number of segments are walked.
    private func lookup(method: String, path: UnsafeBufferPointer<UInt8>) -> Lookup {
        let count = Self.segmentCount(path)
        guard count < bySegmentCount.count else { return .none }
        var get: Int?
        var first: Int?
        for index in bySegmentCount[count] where Self.walk(routes[index].segments, path) {
            if routes[index].method == method {
                return .route(index)
            }
            first = first ?? index
            if get == nil, routes[index].method == "GET" {
                get = index
            }
        }
        if method == "HEAD", let get {
            return .route(get)
        }
        return first.map { .otherMethods(first: $0) } ?? .none
    }

    /// How many segments ``walk(_:_:capture:)`` splits the path into: one more than its slashes after the leading
    /// one.
    private static func segmentCount(_ path: UnsafeBufferPointer<UInt8>) -> Int {
        let slash = UInt8(ascii: "/")
        var count = 1
        for offset in path.indices.dropFirst() where path[offset] == slash { count += 1 }
        return count
    }

    /// Whether the pattern matches the path (a parameter matches any non-empty segment); `capture` gets each
    /// parameter's name and bytes as they are passed.
    private static func walk(
        _ segments: [Segment], _ path: UnsafeBufferPointer<UInt8>,
        capture: (String, UnsafeBufferPointer<UInt8>) -> Void = { _, _ in }
    ) -> Bool {
        let slash = UInt8(ascii: "/")
        var start = path.first == slash ? 1 : 0
        for (index, segment) in segments.enumerated() {
            guard start <= path.count else { return false }
            var end = start
            while end < path.count, path[end] != slash { end += 1 }
            let part = UnsafeBufferPointer(rebasing: path[start..<end])
            switch segment {
            case .literal(let text):
                guard part.elementsEqual(text) else { return false }
            case .parameter(let name):
                guard !part.isEmpty else { return false }
                capture(name, part)
            }
            if index == segments.count - 1 {
                return end == path.count
            }
            start = end + 1
        }
        return false
    }

    /// The captured parameters of a pattern known to match.
    private static func parameters(of segments: [Segment], in path: UnsafeBufferPointer<UInt8>) -> PathParameters {
        var parameters = PathParameters()
        _ = walk(segments, path) { name, bytes in
            parameters.append(name, String(decoding: bytes, as: UTF8.self), expected: segments.count)
        }
        return parameters
    }
}

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
