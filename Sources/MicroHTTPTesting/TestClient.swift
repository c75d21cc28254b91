import Foundation
import MicroHTTP
#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/1.1 client over one TCP connection, kept alive across requests. For tests only.
///
/// Every read and write times out after ``timeout`` seconds, so a broken server fails a test instead of hanging it.
public final class TestClient {
    /// The default number of seconds a single read or write may block.
    public static let timeout = 10

    /// Seconds a single read or write on this connection may block; at least 1.
    public var timeout: Int {
        didSet { applyTimeout() }
    }

    private let host: String
    private let port: Int
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var sawEndOfStream = false
    /// How the body of the response opened by ``openStream(_:_:headers:)`` is framed; nil when there is none left.
    var bodyFraming: BodyFraming?
    /// Body bytes read past what ``readBody(until:)`` returned.
    var unreturnedBody = Data()

    /// Connects to `host` (an IPv4 or IPv6 literal) on `port`; reads and writes time out after `timeout` seconds.
    public init(host: String = "127.0.0.1", port: Int, timeout: Int = TestClient.timeout) throws {
        self.host = host
        self.port = port
        self.timeout = timeout
        self.descriptor = try Self.connect(host: host, port: port)
        applyTimeout()
    }

    deinit {
        close()
    }

    /// Sends one request and reads its response. Adds `Host`, and `Content-Length` when `body` is not nil.
    ///
    /// A large body is sent in pieces; if the server answers before it has all of it (413, say), sending stops and
    /// that answer is returned.
    public func send(
        _ method: String,
        _ target: String,
        headers: [(String, String)] = [],
        body: Data? = nil
    ) throws -> TestResponse {
        try writeRequest(method, target, headers: headers, body: body)
        return try readResponse(method: method)
    }

    /// Writes a request; if writing fails but the server has already answered, the answer is left to read.
    func writeRequest(_ method: String, _ target: String, headers: [(String, String)], body: Data?) throws {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) {
            head += "Host: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\n"
        }
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        if let body, !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        do {
            try write(Data(head.utf8))
            if let body {
                try writeBody(body)
            }
        } catch {
            guard hasDataToRead() else { throw error }
        }
    }

    /// Sends bytes as they are (for malformed or slow requests).
    public func sendRaw(_ bytes: Data) throws {
        try write(bytes)
    }

    /// Reads one response; `method` tells whether a body follows (none for HEAD).
    public func readResponse(method: String = "GET") throws -> TestResponse {
        while true {
            let head = try readHead()
            let (status, headers) = try Self.parseHead(head)
            if (100...199).contains(status) {
                continue
            }
            bodyFraming = nil
            unreturnedBody = Data()
            let body: Data
            if method == "HEAD" || status == 204 || status == 304 {
                body = Data()
            } else if headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
                body = try readChunkedBody()
            } else if let length = headers["Content-Length"] {
                guard let count = Int(length.trimmingCharacters(in: .whitespaces)), count >= 0 else {
                    throw TestClientError("invalid Content-Length: \(length)")
                }
                body = try readExactly(count)
            } else {
                body = try readToEnd()
            }
            return TestResponse(status: status, headers: headers, body: body)
        }
    }

    /// True if the server closed the connection (a read returns 0). Checks without blocking.
    public var isClosedByPeer: Bool {
        if sawEndOfStream || descriptor < 0 {
            return true
        }
        var probe = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&probe, 1, 0) > 0 else {
            return false
        }
        if probe.revents & Int16(POLLHUP | POLLERR) != 0 {
            return true
        }
        var byte: UInt8 = 0
        let peeked = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return peeked == 0
    }

    /// Closes the connection. Idempotent.
    public func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// The client's ephemeral port (to prove the same connection was reused).
    public var localPort: Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else {
            return 0
        }
        return withUnsafePointer(to: &storage) { pointer in
            if Int32(pointer.pointee.ss_family) == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    private func applyTimeout() {
        guard descriptor >= 0 else {
            return
        }
        var value = timeval(tv_sec: max(timeout, 1), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    // MARK: - Connecting

    private static func connect(host: String, port: Int) throws -> Int32 {
        guard (1...65535).contains(port) else {
            throw TestClientError("invalid port \(port)")
        }
        var address4 = sockaddr_in()
        var address6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, host, &address4.sin_addr) == 1 {
            family = AF_INET
            address4.sin_family = sa_family_t(AF_INET)
            address4.sin_port = in_port_t(UInt16(port).bigEndian)
        } else if inet_pton(AF_INET6, host, &address6.sin6_addr) == 1 {
            family = AF_INET6
            address6.sin6_family = sa_family_t(AF_INET6)
            address6.sin6_port = in_port_t(UInt16(port).bigEndian)
        } else {
            throw TestClientError("\(host) is not an IP address literal")
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw TestClientError("socket() failed: \(String(cString: strerror(errno)))")
        }
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let result: Int32
        if family == AF_INET {
            result = withUnsafePointer(to: &address4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        } else {
            result = withUnsafePointer(to: &address6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw TestClientError("cannot connect to \(host):\(port): \(String(cString: strerror(code)))")
        }
        return fd
    }

    // MARK: - Writing

    private func writeBody(_ body: Data) throws {
        let piece = 64 * 1024
        var offset = 0
        while offset < body.count {
            if offset > 0, hasDataToRead() {
                return
            }
            let end = min(offset + piece, body.count)
            try write(body.subdata(in: offset..<end))
            offset = end
        }
    }

    private func write(_ data: Data) throws {
        guard descriptor >= 0 else {
            throw TestClientError("the connection is closed")
        }
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress else { return }
            var sent = 0
            while sent < bytes.count {
                let result = Glibc.send(descriptor, base + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if result < 0 {
                    if errno == EINTR { continue }
                    throw TestClientError("send failed: \(String(cString: strerror(errno)))")
                }
                sent += result
            }
        }
    }

    /// Whether a read would return at once: bytes read and not yet returned, or bytes (or the end of the stream)
    /// waiting on the socket. Checks without blocking.
    public func hasDataToRead() -> Bool {
        if !buffer.isEmpty || !unreturnedBody.isEmpty {
            return true
        }
        guard descriptor >= 0 else {
            return false
        }
        var probe = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&probe, 1, 0) > 0 && probe.revents & Int16(POLLIN) != 0
    }

    // MARK: - Reading

    /// Reads more bytes into the buffer; returns false at the end of the stream.
    func fill() throws -> Bool {
        guard descriptor >= 0 else {
            throw TestClientError("the connection is closed")
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 {
                sawEndOfStream = true
                return false
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                throw TestClientError("no data from the server within \(timeout) seconds")
            default:
                throw TestClientError("recv failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    func readHead() throws -> String {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var searchFrom = 0
        while true {
            if buffer.count >= 4 {
                for index in searchFrom...(buffer.count - 4) where buffer[index..<(index + 4)].elementsEqual(terminator) {
                    let head = String(decoding: buffer[0..<index], as: UTF8.self)
                    buffer.removeFirst(index + 4)
                    return head
                }
                searchFrom = buffer.count - 3
            }
            guard try fill() else {
                throw TestClientError("the server closed the connection before a complete response head")
            }
        }
    }

    func readLine() throws -> String {
        while true {
            if let index = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[0..<index], as: UTF8.self)
                buffer.removeFirst(index + 1)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            guard try fill() else {
                throw TestClientError("the server closed the connection in the middle of a line")
            }
        }
    }

    func readExactly(_ count: Int) throws -> Data {
        while buffer.count < count {
            guard try fill() else {
                throw TestClientError("the server closed the connection after \(buffer.count) of \(count) body bytes")
            }
        }
        let data = Data(buffer[0..<count])
        buffer.removeFirst(count)
        return data
    }

    private func readToEnd() throws -> Data {
        while try fill() {}
        let data = Data(buffer)
        buffer.removeAll()
        return data
    }

    private func readChunkedBody() throws -> Data {
        var body = Data()
        while let chunk = try readChunk() {
            body.append(chunk)
        }
        return body
    }

    /// Reads one chunk of a chunked body; nil (after the trailer) at the last chunk.
    func readChunk() throws -> Data? {
        let line = try readLine()
        let sizeText = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
            throw TestClientError("invalid chunk size line: \(line)")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let data = try readExactly(size)
        guard try readLine().isEmpty else {
            throw TestClientError("missing CRLF after a chunk")
        }
        return data
    }

    /// Up to `limit` bytes, waiting for at least one; nil at the end of the stream.
    func readSome(limit: Int) throws -> Data? {
        if buffer.isEmpty, try !fill() {
            return nil
        }
        let count = min(limit, buffer.count)
        let data = Data(buffer[0..<count])
        buffer.removeFirst(count)
        return data
    }

    static func parseHead(_ head: String) throws -> (Int, HTTPHeaders) {
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw TestClientError("invalid status line: \(statusLine)")
        }
        var headers = HTTPHeaders()
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                throw TestClientError("invalid header line: \(line)")
            }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.add(name: name, value: value)
        }
        return (status, headers)
    }
}

/// A failure of ``TestClient``: connect, send, receive or parse.
public struct TestClientError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public var description: String

    /// Creates an error with the given message.
    public init(_ description: String) {
        self.description = description
    }
}

/// One-shot helper: new connection, one request, close.
public func httpRequest(
    port: Int,
    _ method: String,
    _ target: String,
    headers: [(String, String)] = [],
    body: Data? = nil
) throws -> TestResponse {
    let client = try TestClient(port: port)
    defer { client.close() }
    return try client.send(method, target, headers: headers, body: body)
}
