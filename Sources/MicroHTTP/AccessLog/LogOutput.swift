#if canImport(Glibc)
import Glibc
#endif

/// Where log lines go: whole buffers written to a file descriptor.
public enum LogOutput {
    /// Writes all of `bytes` to `descriptor`, retrying after interruptions and short writes; gives up on any other
    /// error (a log line is not worth failing a request for).
    public static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
