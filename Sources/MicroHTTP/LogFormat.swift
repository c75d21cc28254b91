/// How log lines are written: swift-log's `StreamLogHandler` text, or one JSON object a line.
public enum LogFormat: String, Sendable, Equatable, CaseIterable {
    /// `2026-11-24T10:15:02+0000 info tabconfig: key=value [Module] message`
    case text
    /// `{"timestamp":"2026-11-24T10:15:02.123Z","level":"info","label":"tabconfig","message":"…","key":"value"}`
    case json
}
