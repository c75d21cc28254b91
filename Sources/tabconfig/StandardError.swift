import Foundation

/// The commands' messages for people: one line at a time on standard error.
enum StandardError {
    /// Writes `line` and a newline.
    static func print(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
