import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Conversions of C socket addresses to text and numbers.
enum SocketAddress {
    /// The numeric host of an IPv4 or IPv6 address (an IPv4-mapped IPv6 address as IPv4), or nil for other families.
    static func host(of address: UnsafePointer<sockaddr>) -> String? {
        let family = Int32(address.pointee.sa_family)
        let text: String? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
            let written: UnsafePointer<CChar>?
            switch family {
            case AF_INET:
                written = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    withUnsafePointer(to: ipv4.pointee.sin_addr) {
                        inet_ntop(AF_INET, $0, buffer.baseAddress, socklen_t(buffer.count))
                    }
                }
            case AF_INET6:
                written = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    withUnsafePointer(to: ipv6.pointee.sin6_addr) {
                        inet_ntop(AF_INET6, $0, buffer.baseAddress, socklen_t(buffer.count))
                    }
                }
            default:
                written = nil
            }
            return written.map { String(cString: $0) }
        }
        guard let text else {
            return nil
        }
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
