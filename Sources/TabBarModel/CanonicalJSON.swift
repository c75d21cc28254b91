import Foundation

/// The one JSON encoder configuration of the project: compact, sorted keys, slashes unescaped, dates as RFC 3339
/// timestamps with milliseconds in UTC. Response bodies, model documents and store headers are all encoded with it.
public enum CanonicalJSON {
    /// A `JSONEncoder` with the project's options.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(timestamp(date))
        }
        return encoder
    }

    /// Encodes a value of the project's own types, which hold only strings, numbers, booleans, dates and containers
    /// and so cannot fail to encode.
    public static func encode(_ value: some Encodable) -> Data {
        encode(value, with: makeEncoder())
    }

    /// The same JSON indented, with a trailing newline: for files people read and keep in version control, where
    /// equal values give equal bytes.
    public static func encodePretty(_ value: some Encodable) -> Data {
        let encoder = makeEncoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        return encode(value, with: encoder) + Data("\n".utf8)
    }

    private static func encode(_ value: some Encodable, with encoder: JSONEncoder) -> Data {
        do {
            return try encoder.encode(value)
        } catch {
            preconditionFailure("encoding a value of the project's own types cannot fail: \(error)")
        }
    }

    /// An RFC 3339 timestamp with milliseconds, in UTC, as the encoder writes dates.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
    }
}
