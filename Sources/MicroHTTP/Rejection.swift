/// Why the server refused a request before its handler ran.
public struct Rejection: Sendable, Equatable {
    private enum Kind: Sendable, Equatable {
        case payloadTooLarge(limit: Int)
    }

    private let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// The request body is larger than `limit` bytes.
    public static func payloadTooLarge(limit: Int) -> Rejection {
        Rejection(.payloadTooLarge(limit: limit))
    }

    /// The HTTP status that fits the rejection (413 for ``payloadTooLarge(limit:)``).
    public var status: Int {
        switch kind {
        case .payloadTooLarge: 413
        }
    }

    /// A human-readable sentence.
    public var reason: String {
        switch kind {
        case .payloadTooLarge(let limit): "The request body is larger than the limit of \(limit) bytes."
        }
    }
}
