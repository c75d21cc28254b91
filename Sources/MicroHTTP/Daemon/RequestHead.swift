internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// A request known from its head alone, before any ``Request`` is built: what ``Responder/headAnswer(to:)`` looks
/// at. It reads libmicrohttpd's own copies of the path, query and headers, so it is valid only during that call.
public struct RequestHead {
    /// The method: "GET" or "HEAD" (only requests without a body get here).
    public let method: String
    private let connection: OpaquePointer
    private let path: UnsafePointer<CChar>

    /// `path` is the request target's path (``RequestTarget``); empty for an absolute target without one.
    init(method: String, connection: OpaquePointer, path: UnsafePointer<CChar>) {
        self.method = method
        self.connection = connection
        self.path = path
    }

    /// Calls `body` with the percent-decoded path's bytes, as ``Request/path`` would hold them (empty where it holds
    /// `/` for an absolute target without a path).
    public func withPath<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let count = strlen(path)
        return try path.withMemoryRebound(to: UInt8.self, capacity: count) {
            try body(UnsafeBufferPointer(start: $0, count: count))
        }
    }

    /// The first value of the query argument `name` ("" for one without a value), as ``Request/query(_:)`` gives it.
    /// Names are literals, handed to C as they are (a short `String` would be copied to the heap for that).
    public func query(_ name: StaticString) -> String? {
        Self.lookup(name, kind: .GET_ARGUMENT_KIND, on: connection)
    }

    /// How many query arguments there are, counted without copying any.
    public var queryCount: Int {
        Int(MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, nil, nil))
    }

    /// Calls `body` with each query argument in order, as ``Request/queryItems`` holds them, until it returns false;
    /// nothing is collected.
    public func forEachQueryItem(_ body: (_ name: String, _ value: String) -> Bool) {
        DaemonCallbacks.forEachValue(connection, kind: .GET_ARGUMENT_KIND, body)
    }

    /// The first value of the header field `name`, compared ignoring case.
    public func header(_ name: StaticString) -> String? {
        Self.lookup(name, kind: .HEADER_KIND, on: connection)
    }

    /// The first value of the header field `name` known only at run time (a configured one), compared ignoring case.
    public func header(named name: String) -> String? {
        var value: UnsafePointer<CChar>?
        let found = name.withCString { CMicroHTTPD_lookup(connection, .HEADER_KIND, $0, &value) }
        guard found != 0, let value else {
            return nil
        }
        return String(cString: value)
    }

    /// The first value named `name` of `kind` on the connection.
    static func lookup(_ name: StaticString, kind: MHD_ValueKind, on connection: OpaquePointer) -> String? {
        precondition(name.hasPointerRepresentation, "a name is a literal of several characters")
        var value: UnsafePointer<CChar>?
        let found = name.utf8Start.withMemoryRebound(to: CChar.self, capacity: name.utf8CodeUnitCount + 1) {
            CMicroHTTPD_lookup(connection, kind, $0, &value)
        }
        guard found != 0, let value else {
            return nil
        }
        return String(cString: value)
    }
}
