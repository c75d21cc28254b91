import Glibc
import Synchronization

/// Writes whole lines to stdout, one `write` each, never interleaved.
final class Output: Sendable {
    private let lock = Mutex(())

    func line(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        lock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(1, $0.baseAddress!, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    exit(4)
                }
                offset += written
            }
        }
    }
}
