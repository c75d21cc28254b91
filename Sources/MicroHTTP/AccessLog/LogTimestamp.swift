#if canImport(Glibc)
import Glibc
#endif

/// The timestamps of log lines, formatted from the C clock without Foundation's formatters (the access log writes
/// one per request).
public enum LogTimestamp {
    /// The local time as swift-log's `StreamLogHandler` prints it: `2026-11-23T21:32:22+0000`.
    public static func text(second: Int) -> [UInt8] {
        var now = time_t(second)
        var local = tm()
        localtime_r(&now, &local)
        return format("%Y-%m-%dT%H:%M:%S%z", &local)
    }

    /// RFC 3339 UTC up to the second, for JSON lines: `2026-11-23T21:32:22` (``appendJSONFraction(_:to:)`` ends it).
    public static func jsonSeconds(second: Int) -> [UInt8] {
        var now = time_t(second)
        var utc = tm()
        gmtime_r(&now, &utc)
        return format("%Y-%m-%dT%H:%M:%S", &utc)
    }

    /// Appends `.mmmZ`, the milliseconds of `nanoseconds` past the second.
    public static func appendJSONFraction(_ nanoseconds: Int, to bytes: inout [UInt8]) {
        let milliseconds = min(max(nanoseconds / 1_000_000, 0), 999)
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(milliseconds / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(milliseconds / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(milliseconds % 10))
        bytes.append(UInt8(ascii: "Z"))
    }

    /// The wall clock: seconds since the epoch and nanoseconds past that second.
    public static func now() -> (second: Int, nanoseconds: Int) {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        return (Int(clock.tv_sec), Int(clock.tv_nsec))
    }

    private static func format(_ pattern: String, _ time: inout tm) -> [UInt8] {
        var text = [CChar](repeating: 0, count: 32)
        let count = strftime(&text, text.count, pattern, &time)
        return text.prefix(count).map { UInt8(bitPattern: $0) }
    }
}
