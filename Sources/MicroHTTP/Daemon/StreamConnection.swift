internal import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The libmicrohttpd side of one streamed response: the content reader's `cls`.
///
/// Retained by the MHD response (released in its free callback); the content reader runs on the worker thread
/// serving the connection, which is the only thread allowed to suspend it.
final class StreamConnection {
    /// Bytes libmicrohttpd asks for at most per content-reader call.
    static let blockSize = 16 * 1024

    let stream: ResponseStream
    private let connection: Handle
    /// The bytes handed to libmicrohttpd so far.
    private(set) var bytesRead = 0

    /// An MHD connection pointer that may cross threads; only ever passed to `MHD_resume_connection`.
    // Safe: MHD_resume_connection may be called from any thread, and ResponseStream.State calls it only while suspended.
    struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    init(stream: ResponseStream, connection: OpaquePointer) {
        self.stream = stream
        self.connection = Handle(pointer: connection)
    }

    /// Wakes the connection after a suspending read.
    var resume: @Sendable () -> Void {
        let connection = connection
        return { MHD_resume_connection(connection.pointer) }
    }

    /// Fills `buffer` for libmicrohttpd: a byte count, 0 after suspending, or an end-of-stream / error code.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let pointer = connection.pointer
        let result = stream.read(
            into: buffer,
            isPeerGone: { Self.peerClosed(CMicroHTTPD_connection_fd(pointer)) },
            suspend: { MHD_suspend_connection(pointer) }
        )
        switch result {
        case .bytes(let count):
            bytesRead += count
            return count
        case .suspended: return 0
        case .end: return CMicroHTTPD_reader_end_of_stream()
        case .abort: return CMicroHTTPD_reader_end_with_error()
        }
    }

    /// Whether the client closed or reset the connection, checked without consuming or blocking.
    private static func peerClosed(_ descriptor: Int32) -> Bool {
        guard descriptor >= 0 else {
            return false
        }
        var byte: UInt8 = 0
        while true {
            let peeked = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if peeked >= 0 {
                return peeked == 0
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return false
            default: return true
            }
        }
    }
}
