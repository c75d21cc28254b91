internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// What a request head's header fields say about where the request ends, read in one pass over libmicrohttpd's
/// copies of them, and the checks of RFC 9112 §3.2 and §6.1–6.3 that libmicrohttpd 0.9.75 leaves to the application.
///
/// libmicrohttpd frames a request by its first `Transfer-Encoding` field if the whole value is `chunked`, else by
/// its first `Content-Length`, and keeps a field name with whitespace before the colon as a name of its own. A proxy
/// in front may frame such a request otherwise, so the bytes it sends as one request would be read here as two
/// (request smuggling). Every request whose framing is not unambiguous is therefore refused before its body is read,
/// and the connection closed, as are requests without exactly one valid `Host` where HTTP/1.1 needs it.
/// (libmicrohttpd's own strict mode, `MHD_OPTION_STRICT_FOR_CLIENT` 1, refuses a request without `Host` too, but
/// 0.9.75 then sends two response heads for it, the first without its body; so it is not used.)
///
/// Valid only during the access-handler call it was made in: it keeps pointers to libmicrohttpd's strings.
struct RequestFraming {
    /// The first `Content-Length` value.
    private(set) var contentLength: UnsafePointer<CChar>?
    /// How many `Transfer-Encoding` fields there are.
    private(set) var transferEncodingFields = 0
    private var contentLengthsDiffer = false
    private var transferEncodings: [String] = []
    private var hostFields = 0
    private var invalidHost: String?
    private var invalidName: String?
    private var foldedFields = 0

    /// Reads the header fields of the request on `connection`.
    init(connection: OpaquePointer) {
        withUnsafeMutablePointer(to: &self) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, Self.visit, pointer)
        }
    }

    /// Whether a body follows the head (a `Transfer-Encoding`, or a `Content-Length` other than 0).
    var hasBody: Bool {
        guard transferEncodingFields == 0 else { return true }
        guard let contentLength else { return false }
        return !(contentLength[0] == CChar(UInt8(ascii: "0")) && contentLength[1] == 0)
    }

    /// Why the request must be refused, or nil when its framing is unambiguous. `version` is the request line's.
    func rejection(version: UnsafePointer<CChar>?) -> Rejection? {
        if let invalidName {
            return .ambiguousFraming("the header field name '\(invalidName)' is not a token (whitespace before the colon?)")
        }
        if foldedFields > 0 {
            return .ambiguousFraming("a header field folded onto a continuation line (obs-fold)")
        }
        let http10 = version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false
        if hostFields == 0, !http10 {
            return .missingHost
        }
        if hostFields > 1 {
            return .invalidHost("it appears \(hostFields) times")
        }
        if let invalidHost {
            return .invalidHost("'\(invalidHost)' is not a host and port")
        }
        if transferEncodingFields > 0 {
            return transferEncodingRejection(http10: http10)
        }
        if contentLengthsDiffer {
            return .ambiguousFraming("several Content-Length fields with different values")
        }
        return nil
    }

    /// A request with `Transfer-Encoding` is framed by it only when it is alone, from an HTTP/1.1 client, and says
    /// `chunked` once: libmicrohttpd reads any other coding as "until the connection closes".
    private func transferEncodingRejection(http10: Bool) -> Rejection? {
        let codings = transferEncodings.flatMap { $0.split(separator: ",") }
            .map { String($0.withoutOptionalWhitespace) }
            .filter { !$0.isEmpty }
        if let unknown = codings.first(where: { $0.lowercased() != "chunked" }) {
            return .unsupportedTransferCoding(unknown)
        }
        if http10 {
            return .ambiguousFraming("Transfer-Encoding in an HTTP/1.0 request")
        }
        if contentLength != nil {
            return .ambiguousFraming("both Transfer-Encoding and Content-Length")
        }
        guard codings.count == 1, transferEncodings.count == 1,
            transferEncodings[0].lowercased() == "chunked"
        else {
            return .ambiguousFraming(
                codings.isEmpty ? "an empty Transfer-Encoding" : "Transfer-Encoding must be exactly 'chunked'")
        }
        return nil
    }

    /// Records one header field; `cls` points to the ``RequestFraming`` being read.
    private static let visit: MHD_KeyValueIterator = { cls, _, key, value in
        guard let cls, let key else {
            return .YES
        }
        let framing = cls.assumingMemoryBound(to: RequestFraming.self)
        var length = 0
        var isToken = true
        while key[length] != 0 {
            isToken = isToken && isTokenByte(UInt8(bitPattern: key[length]))
            length += 1
        }
        if !isToken || length == 0 {
            if framing.pointee.invalidName == nil {
                framing.pointee.invalidName = String(cString: key)
            }
            return .YES
        }
        guard let value else {
            return .YES
        }
        if isFolded(key: key, length: length, value: value) {
            framing.pointee.foldedFields += 1
            return .YES
        }
        switch length {
        case 4 where same(key, "Host"):
            framing.pointee.hostFields += 1
            if !isHost(value), framing.pointee.invalidHost == nil {
                framing.pointee.invalidHost = String(cString: value)
            }
        case 14 where same(key, "Content-Length"):
            if let first = framing.pointee.contentLength {
                if strcmp(first, value) != 0 {
                    framing.pointee.contentLengthsDiffer = true
                }
            } else {
                framing.pointee.contentLength = value
            }
        case 17 where same(key, "Transfer-Encoding"):
            framing.pointee.transferEncodingFields += 1
            framing.pointee.transferEncodings.append(String(cString: value))
        default:
            break
        }
        return .YES
    }

    /// Whether the field was folded onto a continuation line (RFC 9112 §5.2 obs-fold). libmicrohttpd 0.9.75 neither
    /// refuses obs-fold nor replaces it with a space: it appends the continuation to the field's *name*, in a copy
    /// elsewhere in the connection's memory (`Transfer-Encoding:` + ` chunked` arrives as a field named
    /// `Transfer-Encodingchunked` with an empty value, so the request is framed by its `Content-Length`). Every other
    /// field keeps its name and value where they were read: the value follows the name's colon, which became the
    /// name's terminating NUL, after optional whitespace. A value found anywhere else marks a folded field.
    private static func isFolded(key: UnsafePointer<CChar>, length: Int, value: UnsafePointer<CChar>) -> Bool {
        var cursor = key + length + 1
        guard value >= cursor else { return true }
        while cursor < value {
            guard cursor.pointee == CChar(UInt8(ascii: " ")) || cursor.pointee == CChar(UInt8(ascii: "\t")) else {
                return true
            }
            cursor += 1
        }
        return false
    }

    /// Whether the field name `key` is `name`, ignoring case. `name` is a literal, handed to C as it is.
    private static func same(_ key: UnsafePointer<CChar>, _ name: StaticString) -> Bool {
        name.utf8Start.withMemoryRebound(to: CChar.self, capacity: name.utf8CodeUnitCount + 1) {
            strcasecmp(key, $0) == 0
        }
    }

    /// Whether `byte` may appear in a field name (RFC 9110 §5.6.2 `tchar`).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Whether `value` is a `Host` value: `uri-host [":" port]`, possibly empty (RFC 9110 §7.2), with optional
    /// whitespace around it.
    private static func isHost(_ value: UnsafePointer<CChar>) -> Bool {
        var index = 0
        var seenHost = false
        var whitespaceAfterHost = false
        while value[index] != 0 {
            let byte = UInt8(bitPattern: value[index])
            index += 1
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                whitespaceAfterHost = seenHost
                continue
            }
            if whitespaceAfterHost {
                return false
            }
            seenHost = true
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"),
                UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
                UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
                UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"):
                break
            default:
                return false
            }
        }
        return true
    }
}
