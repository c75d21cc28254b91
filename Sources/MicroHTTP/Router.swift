/// Maps a method and a path to a handler, capturing `{name}` path segments.
public struct Router: Sendable {
    /// Answers one routed request.
    public typealias Handler = @Sendable (Request) -> Response

    /// The result of ``match(method:path:)``.
    public enum Match: Sendable {
        /// A route matched; `parameters` holds the captured path segments.
        case found(Handler, parameters: [String: String])
        /// The path matched a route, but not for this method; `allowed` is sorted.
        case methodNotAllowed(allowed: [String])
        /// No route has this path.
        case notFound
    }

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private struct Route: Sendable {
        var method: String
        var segments: [Segment]
        var handler: Handler
    }

    private var routes: [Route] = []

    /// Creates a router with no routes.
    public init() {}

    /// Pattern segments like "/v1/clients/{client}/tabs"; `{name}` matches exactly one non-empty path segment.
    /// When several routes match the same request, the one added first wins.
    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        let segments = Self.split(pattern).map { part -> Segment in
            if part.count > 2, part.hasPrefix("{"), part.hasSuffix("}") {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
        routes.append(Route(method: method, segments: segments, handler: handler))
    }

    /// HEAD matches GET routes. `allowed` is sorted and includes HEAD when GET is allowed.
    public func match(method: String, path: String) -> Match {
        let parts = Self.split(path)
        var get: Route?
        var pathMatched = false
        for route in routes where Self.matches(route.segments, parts) {
            if route.method == method {
                return .found(route.handler, parameters: Self.parameters(of: route.segments, in: parts))
            }
            pathMatched = true
            if get == nil, route.method == "GET" {
                get = route
            }
        }
        if method == "HEAD", let get {
            return .found(get.handler, parameters: Self.parameters(of: get.segments, in: parts))
        }
        guard pathMatched else {
            return .notFound
        }
        var allowed = Set(routes.filter { Self.matches($0.segments, parts) }.map(\.method))
        if allowed.contains("GET") {
            allowed.insert("HEAD")
        }
        return .methodNotAllowed(allowed: allowed.sorted())
    }

    private static func split(_ path: String) -> [Substring] {
        let trimmed = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        return trimmed.split(separator: "/", omittingEmptySubsequences: false)
    }

    /// Whether the pattern matches the path segments (a parameter matches any non-empty segment).
    private static func matches(_ segments: [Segment], _ parts: [Substring]) -> Bool {
        guard segments.count == parts.count else {
            return false
        }
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text):
                guard part == text else { return false }
            case .parameter:
                guard !part.isEmpty else { return false }
            }
        }
        return true
    }

    /// The captured parameters of a pattern known to match.
    private static func parameters(of segments: [Segment], in parts: [Substring]) -> [String: String] {
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            if case .parameter(let name) = segment {
                parameters[name] = String(part)
            }
        }
        return parameters
    }
}
