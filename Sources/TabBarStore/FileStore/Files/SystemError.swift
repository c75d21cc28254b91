import Glibc

/// A failed system call: what was attempted, on which path, and the `errno` it returned.
struct SystemError: Error, CustomStringConvertible, Sendable {
    var operation: String
    var path: String
    var code: Int32
    /// A message that replaces the `errno` text, for failures reported by Foundation.
    var detail: String? = nil

    /// Captures the current `errno`.
    static func current(_ operation: String, _ path: String) -> SystemError {
        SystemError(operation: operation, path: path, code: errno)
    }

    var description: String {
        if let detail { return "\(operation) \(path) failed: \(detail)" }
        return "\(operation) \(path) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
}
