import Logging

extension Logger {
    /// A logger that drops everything.
    public static let silent = Logger(label: "tabconfig-tests") { _ in SwiftLogNoOpLogHandler() }
}
