import Foundation
import Synchronization

/// The commands' messages for people: one line at a time on standard error.
enum StandardError {
    /// Writes `line` and a newline.
    static func print(_ line: String) {
        write(line + "\n")
    }

    /// Writes `text` as it is (a progress bar redraws its line with a carriage return).
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// A one-line progress bar on standard error, redrawn in place when it is a terminal and at most every tenth
/// otherwise (a log keeps a few lines, not thousands).
final class ProgressBar: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let lastTenth = Mutex(-1)

    /// Shows `done` of `total`.
    @Sendable func show(_ done: Int, _ total: Int) {
        let fraction = total == 0 ? 1 : Double(done) / Double(total)
        let width = 30
        let filled = Int(fraction * Double(width))
        let line =
            "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
            + "\(done)/\(total) (\(Int(fraction * 100)) %)"
        if isTerminal {
            StandardError.write("\r" + line)
        } else {
            let tenth = Int(fraction * 10)
            let changed = lastTenth.withLock { last in
                defer { last = max(last, tenth) }
                return tenth > last
            }
            if changed { StandardError.write(line + "\n") }
        }
    }

    /// Ends the bar's line.
    func finish() {
        if isTerminal { StandardError.write("\n") }
    }
}
