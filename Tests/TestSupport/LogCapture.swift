import InMemoryLogging
import Logging

/// Keeps what a logger logged in memory (swift-log's `InMemoryLogHandler`), so tests can check it without
/// bootstrapping the logging system. Messages and metadata values are kept as text, for plain comparisons.
public struct LogCapture: Sendable {
    /// One logged message.
    public struct Entry: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]
    }

    private let handler: InMemoryLogHandler

    public init() {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        self.handler = handler
    }

    /// A logger at trace level that records into this capture.
    public var logger: Logger {
        Logger(label: "tabconfig-tests") { [handler] _ in handler }
    }

    /// Everything logged so far, oldest first.
    public var all: [Entry] {
        handler.entries.map { entry in
            Entry(level: entry.level, message: "\(entry.message)", metadata: entry.metadata.mapValues { "\($0)" })
        }
    }

    /// Messages at warning level or above.
    public var warnings: [Entry] {
        all.filter { $0.level >= .warning }
    }
}
