import Logging
import Synchronization

/// Collects log messages in memory, so tests can check what was logged without bootstrapping the logging system.
final class LogCapture: Sendable {
    /// One captured message.
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let entries = Mutex<[Entry]>([])

    /// A logger that records into this capture.
    var logger: Logger {
        Logger(label: "TabBarStoreTests") { _ in Handler(capture: self) }
    }

    /// Everything logged so far.
    var all: [Entry] {
        entries.withLock { $0 }
    }

    /// Messages at warning level or above.
    var warnings: [Entry] {
        all.filter { $0.level >= .warning }
    }

    fileprivate func record(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.record(
                Entry(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })
            )
        }
    }
}

extension Logger {
    /// A logger that drops everything.
    static let silent = Logger(label: "TabBarStoreTests") { _ in SwiftLogNoOpLogHandler() }
}
