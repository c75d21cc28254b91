import Logging
import Synchronization

/// Keeps log entries in memory so tests can inspect what the server logged.
final class LogRecorder: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
    }

    private let entries = Mutex<[Entry]>([])

    var recorded: [Entry] {
        entries.withLock { $0 }
    }

    func record(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }

    /// A logger at trace level writing into this recorder.
    func logger(label: String = "MicroHTTPTests") -> Logger {
        Logger(label: label) { _ in RecordingLogHandler(recorder: self) }
    }
}
