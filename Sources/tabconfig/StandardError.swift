import Foundation

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
