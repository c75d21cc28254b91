import Foundation
import TabBarModel

/// One version file, `clients/<client>/versions/000001.json`: a JSON object
/// `{"note","publishedAt","rollbackOf","version","config"}` with the config document embedded as JSON, last.
enum VersionFile {
    private struct Header: Codable {
        var version: Int
        var publishedAt: String
        var note: String?
        var rollbackOf: Int?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
            try container.encode(publishedAt, forKey: .publishedAt)
            try container.encode(note, forKey: .note)
            try container.encode(rollbackOf, forKey: .rollbackOf)
        }
    }

    private static let configKey = Data(#","config":"#.utf8)

    /// The file name of a version number: six digits, zero-padded.
    static func fileName(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".json"
    }

    /// The version number a file name stands for, or nil for any other name.
    static func number(fromFileName name: String) -> Int? {
        guard name.hasSuffix(".json") else { return nil }
        let digits = name.dropLast(5)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }

    /// A date rounded to what the file keeps (milliseconds), so the value in memory equals the value read back.
    static func storedDate(_ date: Date) -> Date {
        let text = format(date)
        return parse(text) ?? date
    }

    /// The file's bytes. The document must be valid JSON.
    static func encode(_ version: ConfigVersion) throws -> Data {
        let header = Header(
            version: version.version, publishedAt: format(version.publishedAt), note: version.note,
            rollbackOf: version.rollbackOf
        )
        var data = try CanonicalJSON.makeEncoder().encode(header)
        precondition(data.last == UInt8(ascii: "}"), "a JSON object ends with a brace")
        data.removeLast()
        data.append(configKey)
        data.append(version.document)
        data.append(UInt8(ascii: "}"))
        return data
    }

    /// Parses a version file; the error message says what is wrong.
    static func decode(_ data: Data, client: String) throws(VersionFileError) -> ConfigVersion {
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw VersionFileError(message: "not a version file: \(describe(error))")
        }
        guard let publishedAt = parse(header.publishedAt) else {
            throw VersionFileError(message: "publishedAt is not an ISO 8601 date: \(header.publishedAt)")
        }
        guard let document = embeddedDocument(data) else {
            throw VersionFileError(message: "missing config")
        }
        return ConfigVersion(
            client: client, version: header.version, publishedAt: publishedAt, note: header.note,
            rollbackOf: header.rollbackOf, document: document
        )
    }

    /// Whether `data` is one JSON value.
    static func isJSON(_ data: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
    }

    /// The config bytes exactly as published when the file is as written by `encode`; otherwise the `config`
    /// value re-serialized.
    private static func embeddedDocument(_ data: Data) -> Data? {
        if let range = data.range(of: configKey) {
            var end = data.endIndex
            while end > range.upperBound, isWhitespace(data[end - 1]) { end -= 1 }
            if end > range.upperBound, data[end - 1] == UInt8(ascii: "}") {
                let document = data[range.upperBound..<(end - 1)]
                if isJSON(Data(document)) { return Data(document) }
            }
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let config = object["config"]
        else { return nil }
        return try? JSONSerialization.data(withJSONObject: config, options: [.fragmentsAllowed, .sortedKeys])
    }

    /// A decoding error in one short phrase.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            let text = underlying ?? context.debugDescription
            return text.hasSuffix(".") ? String(text.dropLast()) : text
        case .keyNotFound(let key, _):
            return "no \"\(key.stringValue)\" member"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(path.isEmpty ? "the document" : "\"\(path)\"") has the wrong type"
        @unknown default:
            return "\(error)"
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func formatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    /// The text a date is stored as: RFC 3339 with milliseconds, in UTC.
    static func format(_ date: Date) -> String {
        formatter().string(from: date)
    }

    /// The date a stored text stands for (with or without fractional seconds), or nil.
    static func parse(_ text: String) -> Date? {
        if let date = formatter().date(from: text) { return date }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        return plain.date(from: text)
    }
}

/// Why a version file could not be parsed.
struct VersionFileError: Error {
    var message: String
}
