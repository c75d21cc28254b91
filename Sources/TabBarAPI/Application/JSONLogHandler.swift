import Logging
import MicroHTTP
import TabBarModel
#if canImport(Glibc)
import Glibc
#endif

/// A swift-log handler writing one JSON object a line to standard error, for `--log-format json`: `timestamp`
/// (RFC 3339, UTC, milliseconds), `level`, `label`, `source`, `message`, then the metadata as members of the same
/// object (a metadata key equal to one of those five is written with a leading `_`). swift-log ships no JSON handler;
/// the access log writes its lines in the same shape (`MicroHTTP.AccessLog`).
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    private let label: String

    private static let reserved: Set<String> = ["timestamp", "level", "label", "source", "message"]

    /// A handler for the logger labelled `label`.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() {
            merged.merge(provided) { $1 }
        }
        if let explicit = event.metadata {
            merged.merge(explicit) { $1 }
        }
        if let error = event.error {
            merged["error"] = "\(error)"
        }
        LogOutput.write(
            Self.line(
                level: event.level, label: label, source: event.source, message: event.message.description,
                metadata: merged),
            to: STDERR_FILENO)
    }

    /// One log line, newline included.
    static func line(
        level: Logger.Level, label: String, source: String, message: String, metadata: Logger.Metadata
    ) -> [UInt8] {
        let (second, nanoseconds) = LogTimestamp.now()
        var bytes: [UInt8] = Array(#"{"timestamp":""#.utf8)
        bytes.append(contentsOf: LogTimestamp.jsonSeconds(second: second))
        LogTimestamp.appendJSONFraction(nanoseconds, to: &bytes)
        bytes.append(contentsOf: #"","level":"#.utf8)
        DirectJSON.appendString(level.rawValue, to: &bytes)
        for (key, value) in [("label", label), ("source", source), ("message", message)] {
            bytes.append(UInt8(ascii: ","))
            DirectJSON.appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            DirectJSON.appendString(value, to: &bytes)
        }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            bytes.append(UInt8(ascii: ","))
            DirectJSON.appendString(reserved.contains(key) ? "_" + key : key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            append(value, to: &bytes)
        }
        bytes.append(contentsOf: "}\n".utf8)
        return bytes
    }

    private static func append(_ value: Logger.MetadataValue, to bytes: inout [UInt8]) {
        switch value {
        case .string(let text):
            DirectJSON.appendString(text, to: &bytes)
        case .stringConvertible(let convertible):
            DirectJSON.appendString(convertible.description, to: &bytes)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                append(item, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .dictionary(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, (key, item)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                DirectJSON.appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                append(item, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}
