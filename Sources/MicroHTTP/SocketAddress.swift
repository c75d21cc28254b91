import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Conversions of C socket addresses to text and numbers.
enum SocketAddress {
    /// The numeric host of an IPv4 or IPv6 address, or nil for other families.
    static func host(of address: UnsafePointer<sockaddr>) -> String? {
        let length: socklen_t
        switch Int32(address.pointee.sa_family) {
        case AF_INET: length = socklen_t(MemoryLayout<sockaddr_in>.size)
        case AF_INET6: length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        default: return nil
        }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
        guard status == 0 else {
            return nil
        }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("::ffff:"), text.contains(".") {
            return String(text.dropFirst("::ffff:".count))
        }
        return text
    }

    /// The port of an IPv4 or IPv6 address, or 0 for other families.
    static func port(of storage: sockaddr_storage) -> UInt16 {
        var storage = storage
        return withUnsafePointer(to: &storage) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            default:
                0
            }
        }
    }
}
