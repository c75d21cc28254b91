/// The bytes of access-log lines being put together, with appenders that format without building strings.
struct AccessLogLine {
    var bytes: [UInt8] = []

    /// Appends the UTF-8 of `text`.
    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends `text` when it is a token that needs no quoting or escaping (visible ASCII other than `"` and `\`),
    /// else `?`.
    mutating func appendToken(_ text: String) {
        let isToken = !text.isEmpty && text.utf8.allSatisfy {
            $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        }
        if isToken { append(text) } else { bytes.append(UInt8(ascii: "?")) }
    }

    /// Appends `value` in decimal.
    mutating func append(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
        }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    /// Appends a duration in microseconds as milliseconds with three decimals (`2.063`).
    mutating func appendMilliseconds(microseconds: Int) {
        let value = max(microseconds, 0)
        append(value / 1000)
        bytes.append(UInt8(ascii: "."))
        let fraction = value % 1000
        if fraction < 100 { bytes.append(UInt8(ascii: "0")) }
        if fraction < 10 { bytes.append(UInt8(ascii: "0")) }
        append(fraction)
    }
}
