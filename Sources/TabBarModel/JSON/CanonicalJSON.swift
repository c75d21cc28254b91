import Foundation

/// The one JSON encoder configuration of the project: compact, sorted keys, slashes unescaped, dates as RFC 3339
/// timestamps in whole seconds, UTC (`instant(_:)`). Response bodies, model documents and store headers are all
/// encoded with it; the stores write their own dates (milliseconds) themselves.
public enum CanonicalJSON {
    /// A `JSONEncoder` with the project's options.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(instant(date))
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

    /// An RFC 3339 timestamp in whole seconds, in UTC (`2026-11-24T10:00:00Z`), as the encoder writes dates: the
    /// form the default date parsers of apps' platforms read (swift-openapi-runtime's, `JSONDecoder`'s `.iso8601`,
    /// `ISO8601DateFormatter()`), which refuse fractional seconds. The fraction is dropped, so the text is never
    /// later than the instant (as an audit `since`, an entry's own `time` includes it).
    public static func instant(_ date: Date) -> String {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)).formatted(
            Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
    }

    /// An RFC 3339 timestamp with milliseconds, in UTC: for messages naming an instant a document gave.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
    }
}
