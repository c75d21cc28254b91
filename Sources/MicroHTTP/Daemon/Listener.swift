import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket bound and listening before a ``Server`` exists, so that a program can learn that its address is
/// unusable (in use, not local) before it does anything else, such as opening its data. Hand it to
/// ``Server/init(configuration:responder:logger:listener:)``; the server then accepts on it. Closed when released
/// without having been handed over.
public final class Listener: Sendable {
    /// The bound TCP port (the real one when asked for 0).
    public let port: Int
    private let socket: Mutex<ListeningSocket.Bound?>

    /// Binds `host` (an IPv4 or IPv6 literal) and `port` (0 picks a free one) and listens; throws ``ServerError``
    /// with the reason (address in use, not an address of this machine, …).
    public init(host: String, port: Int) throws {
        let bound = try ListeningSocket.open(host: host, port: port)
        self.port = bound.port
        socket = Mutex(bound)
    }

    deinit {
        if let bound = socket.withLock({ $0 }) {
            Glibc.close(bound.descriptor)
        }
    }

    /// The socket, handed over once: the caller owns it from then on.
    func take() -> ListeningSocket.Bound? {
        socket.withLock { socket in
            defer { socket = nil }
            return socket
        }
    }
}
