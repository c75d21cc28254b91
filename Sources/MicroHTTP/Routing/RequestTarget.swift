#if canImport(Glibc)
import Glibc
#endif

/// Where the path starts in a request target as libmicrohttpd hands it over (percent-decoded, the query cut off).
///
/// The origin form (`/v1/…`) is the path itself. The absolute form (`http://host/v1/…`, RFC 9112 §3.2.2), which a
/// client sends to a proxy and a proxy may forward, is accepted for `http` and `https`: its path is what follows
/// the authority (empty when nothing does: the path is then `/`). The asterisk form (`*`) is kept as it is. Anything
/// else is not a request target this server can answer.
enum RequestTarget {
    /// The byte offset of the path in `url`: 0 for the origin and asterisk forms, past the authority for the
    /// absolute form (`strlen(url)` when it has no path). Nil when `url` is none of those forms.
    static func pathOffset(_ url: UnsafePointer<CChar>) -> Int? {
        let first = UInt8(bitPattern: url[0])
        if first == UInt8(ascii: "/") || (first == UInt8(ascii: "*") && url[1] == 0) {
            return 0
        }
        var index = 0
        while isSchemeByte(UInt8(bitPattern: url[index]), first: index == 0) {
            index += 1
        }
        guard index == 4 || index == 5, isHTTPScheme(url, length: index),
            url[index] == CChar(UInt8(ascii: ":")), url[index + 1] == CChar(UInt8(ascii: "/")),
            url[index + 2] == CChar(UInt8(ascii: "/"))
        else {
            return nil
        }
        index += 3
        while url[index] != 0, url[index] != CChar(UInt8(ascii: "/")) {
            index += 1
        }
        return index
    }

    /// The path starting at `path` (`url` advanced by ``pathOffset(_:)``) as a string: `/` for an absolute target
    /// without one.
    static func path(_ path: UnsafePointer<CChar>) -> String {
        path[0] == 0 ? "/" : String(cString: path)
    }

    private static func isSchemeByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."): !first
        default: false
        }
    }

    private static func isHTTPScheme(_ url: UnsafePointer<CChar>, length: Int) -> Bool {
        let scheme: StaticString = length == 4 ? "http" : "https"
        return scheme.utf8Start.withMemoryRebound(to: CChar.self, capacity: length + 1) {
            strncasecmp(url, $0, length) == 0
        }
    }
}
