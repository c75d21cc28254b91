import Synchronization
import TabBarStore

/// Makes `AuditRecord`s whose `summarize` remembers the previous versions it was called with and names the previous
/// version's number in the summary (`tabsChanged == ["after-N"]`, 0 for none), so a test can tell which it got.
final class AuditRecorder: Sendable {
    private let calls = Mutex<[ConfigVersion?]>([])

    /// The previous versions `summarize` was called with, in order.
    var previous: [ConfigVersion?] {
        calls.withLock { $0 }
    }

    /// The summary `summarize` returns for a previous version numbered `number` (0: none).
    static func summary(after number: Int?) -> AuditSummary {
        AuditSummary(tabsChanged: ["after-\(number ?? 0)"])
    }

    func record(_ action: AuditAction, key: String = "admin", requestID: String? = nil) -> AuditRecord {
        AuditRecord(key: key, action: action, requestID: requestID) { [self] previous in
            calls.withLock { $0.append(previous) }
            return Self.summary(after: previous?.version)
        }
    }
}
