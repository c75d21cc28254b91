import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Creates the bound, listening TCP socket the daemon accepts on, so bind errors carry a clear reason.
enum ListeningSocket {
    struct Bound {
        var descriptor: Int32
        var port: Int
        var isIPv6: Bool
    }

    static func open(host: String, port: Int) throws -> Bound {
        guard (0...65535).contains(port) else {
            throw ServerError("cannot listen on \(host):\(port): the port must be between 0 and 65535")
        }
        if let address = ipv4(host, port: port) {
            return try bound(host: host, port: port, family: AF_INET, address: address)
        }
        if let address = ipv6(host, port: port) {
            return try bound(host: host, port: port, family: AF_INET6, address: address)
        }
        throw ServerError("cannot listen on \(host):\(port): the host is not an IPv4 or IPv6 address literal")
    }

    /// A socket of `family` bound to `address` (a `sockaddr_in` or `sockaddr_in6`) and listening.
    private static func bound<Address>(host: String, port: Int, family: Int32, address: Address) throws -> Bound {
        var address = address
        let descriptor = try bind(host: host, port: port, family: family) { fd in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(fd, $0, socklen_t(MemoryLayout<Address>.size))
                }
            }
        }
        return Bound(descriptor: descriptor, port: try boundPort(descriptor), isIPv6: family == AF_INET6)
    }

    private static func ipv4(_ host: String, port: Int) -> sockaddr_in? {
        var address = sockaddr_in()
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            return nil
        }
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }

    private static func ipv6(_ host: String, port: Int) -> sockaddr_in6? {
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var address = sockaddr_in6()
        guard inet_pton(AF_INET6, literal, &address.sin6_addr) == 1 else {
            return nil
        }
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        return address
    }

    private static func bind(
        host: String,
        port: Int,
        family: Int32,
        _ bindCall: (Int32) -> Int32
    ) throws -> Int32 {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else {
            throw ServerError("cannot listen on \(host):\(port): socket() failed: \(errorText(errno))")
        }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            var off: Int32 = 0
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
        }
        if bindCall(fd) != 0 {
            let code = errno
            Glibc.close(fd)
            throw ServerError("cannot listen on \(host):\(port): \(errorText(code))")
        }
        if listen(fd, SOMAXCONN) != 0 {
            let code = errno
            Glibc.close(fd)
            throw ServerError("cannot listen on \(host):\(port): listen() failed: \(errorText(code))")
        }
        return fd
    }

    private static func boundPort(_ fd: Int32) throws -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ServerError("cannot read the bound port: \(errorText(code))")
        }
        return Int(SocketAddress.port(of: storage))
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
