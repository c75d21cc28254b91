/// Why the server refused a request before its handler ran.
public struct Rejection: Sendable, Equatable {
    private enum Kind: Sendable, Equatable {
        case payloadTooLarge(limit: Int)
        case ambiguousFraming(String)
        case unsupportedTransferCoding(String)
        case missingHost
        case invalidHost(String)
        case invalidTarget
    }

    private let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// The request body is larger than `limit` bytes.
    public static func payloadTooLarge(limit: Int) -> Rejection {
        Rejection(.payloadTooLarge(limit: limit))
    }

    /// Where the request ends cannot be told for certain (RFC 9112 §6.3): `Transfer-Encoding` with
    /// `Content-Length`, differing `Content-Length` values, a field name that is not a token (whitespace before the
    /// colon), `chunked` applied twice, or `Transfer-Encoding` in an HTTP/1.0 request. `detail` says which.
    static func ambiguousFraming(_ detail: String) -> Rejection {
        Rejection(.ambiguousFraming(detail))
    }

    /// The request's body has a transfer coding other than `chunked` (RFC 9112 §6.1: 501).
    static func unsupportedTransferCoding(_ coding: String) -> Rejection {
        Rejection(.unsupportedTransferCoding(coding))
    }

    /// An HTTP/1.1 request without `Host` (RFC 9112 §3.2).
    static var missingHost: Rejection {
        Rejection(.missingHost)
    }

    /// The request has several `Host` fields, or one whose value is not a host (RFC 9112 §3.2). `detail` says which.
    static func invalidHost(_ detail: String) -> Rejection {
        Rejection(.invalidHost(detail))
    }

    /// The request target is neither a path nor an absolute `http` or `https` URI (RFC 9112 §3.2).
    static var invalidTarget: Rejection {
        Rejection(.invalidTarget)
    }

    /// The HTTP status that fits the rejection: 413 for a body over the limit, 501 for an unsupported transfer
    /// coding, else 400.
    public var status: Int {
        switch kind {
        case .payloadTooLarge: 413
        case .unsupportedTransferCoding: 501
        case .ambiguousFraming, .missingHost, .invalidHost, .invalidTarget: 400
        }
    }

    /// A human-readable sentence.
    public var reason: String {
        switch kind {
        case .payloadTooLarge(let limit): "The request body is larger than the limit of \(limit) bytes."
        case .ambiguousFraming(let detail): "The request's framing is ambiguous: \(detail)."
        case .unsupportedTransferCoding(let coding):
            "The transfer coding '\(coding)' is not supported; send the body with Content-Length or chunked."
        case .missingHost: "An HTTP/1.1 request needs a Host header."
        case .invalidHost(let detail): "The request's Host header is invalid: \(detail)."
        case .invalidTarget: "The request target must be a path or an absolute http or https URI."
        }
    }
}
