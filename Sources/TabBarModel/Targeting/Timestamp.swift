import Foundation

/// RFC 3339 date-times of `startsAt` / `endsAt`.
public enum Timestamp {
    /// The instant `text` names, nil when it is not an RFC 3339 date-time.
    public static func parse(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }
}
