import Foundation

/// The one JSON encoding the API speaks: compact, sorted keys, unescaped slashes.
enum JSONCoding {
    static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.format(date))
        }
        do {
            return try encoder.encode(value)
        } catch {
            preconditionFailure("encoding a response value cannot fail: \(error)")
        }
    }
}

/// RFC 3339 timestamps with milliseconds, in UTC.
enum Timestamp {
    static func format(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
    }
}
