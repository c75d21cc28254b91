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
        var candidates: [(route: Route, parameters: [String: String])] = []
        for route in routes {
            if let parameters = Self.parameters(of: route.segments, in: parts) {
                candidates.append((route, parameters))
            }
        }
        if candidates.isEmpty {
            return .notFound
        }
        if let exact = candidates.first(where: { $0.route.method == method }) {
            return .found(exact.route.handler, parameters: exact.parameters)
        }
        if method == "HEAD", let get = candidates.first(where: { $0.route.method == "GET" }) {
            return .found(get.route.handler, parameters: get.parameters)
        }
        var allowed = Set(candidates.map(\.route.method))
        if allowed.contains("GET") {
            allowed.insert("HEAD")
        }
        return .methodNotAllowed(allowed: allowed.sorted())
    }

    private static func split(_ path: String) -> [Substring] {
        let trimmed = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        return trimmed.split(separator: "/", omittingEmptySubsequences: false)
    }

    private static func parameters(of segments: [Segment], in parts: [Substring]) -> [String: String]? {
        guard segments.count == parts.count else {
            return nil
        }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text):
                guard part == text else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                parameters[name] = String(part)
            }
        }
        return parameters
    }
}
