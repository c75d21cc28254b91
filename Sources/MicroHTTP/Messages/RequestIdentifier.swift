import Synchronization

/// Gives each request its id: the client's `X-Request-Id` when well-formed, else one made here (a random prefix per
/// process and a sequence number), so that an app, a proxy and the log name a request alike.
final class RequestIdentifier: Sendable {
    /// The header field a request id is read from and echoed in.
    static let headerName = "X-Request-Id"

    /// The process's random prefix and the dash, as bytes.
    private let prefix = Array((String(UInt32.random(in: .min ... .max), radix: 16) + "-").utf8)
    private let sequence = Atomic<UInt64>(0)

    /// `clientValue` when it is well-formed (``isWellFormed(_:)``), else a new id.
    func id(clientValue: String?) -> String {
        if let clientValue, Self.isWellFormed(clientValue) {
            return clientValue
        }
        let number = sequence.add(1, ordering: .relaxed).newValue
        // Written into the string's own storage: one allocation per request rather than one per part.
        let digits = max(1, (UInt64.bitWidth - number.leadingZeroBitCount + 3) / 4)
        return String(unsafeUninitializedCapacity: prefix.count + digits) { buffer in
            _ = buffer.initialize(fromContentsOf: prefix)
            var rest = number
            for index in stride(from: prefix.count + digits - 1, through: prefix.count, by: -1) {
                buffer[index] = Self.hexDigits[Int(rest & 0xF)]
                rest >>= 4
            }
            return prefix.count + digits
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// 1 to 128 characters among letters, digits and `-._~:@+/=` (UUIDs, base64, trace ids): text that needs no
    /// escaping in a header, a log line or a URI reference.
    static func isWellFormed(_ value: String) -> Bool {
        (1...128).contains(value.utf8.count) && value.utf8.allSatisfy(isAllowed)
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"),
            UInt8(ascii: "@"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }
}
