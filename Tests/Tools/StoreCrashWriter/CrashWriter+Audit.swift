import Foundation
import TabBarStore

/// The `--audit` mode: each thread makes audited config changes to a client of its own, `a<t>`, printing
///
/// - `ACKV <client> <version>` after a publish or a rollback;
/// - `DELX <client>` before a deletion and `ACKX <client> <1 if the client had a live version, else 0>` after it.
///
/// Now and then a publish expects a version the client is not at, which must be refused (nothing printed). Every
/// summary names the previous version (`tabsChanged == ["after-N"]`, 0 for none), so a checker can tell that
/// `summarize` got the version live before the change.
extension CrashWriter {
    /// One audited thread's loop.
    static func writeAudited(store: FileStore, thread: Int, seed: UInt64, output: Output) {
        let client = "a\(thread)"
        // Each run starts elsewhere in the pattern, so that short runs reach every kind of change.
        var counter = Int(seed % 6) + thread
        while true {
            do {
                let live = store.liveVersion(client: client)?.version
                if counter % 6 == 5 {
                    output.line("DELX \(client)")
                    let existed = try store.deleteClient(client, audit: record(.delete, thread: thread))
                    output.line("ACKX \(client) \(existed ? 1 : 0)")
                } else {
                    let stale = counter % 5 == 3
                    let rollback = counter % 4 == 2 && live != nil
                    let document = Data(#"{"writer":\#(seed),"thread":\#(thread),"counter":\#(counter)}"#.utf8)
                    do {
                        let version = try store.publish(
                            client: client, document: document, note: "n\(counter)", rollbackOf: rollback ? live : nil,
                            expectedVersion: stale ? (live ?? 0) + 1 : live ?? 0,
                            audit: record(rollback ? .rollback : .publish, thread: thread))
                        if stale { fail("a publish expecting a version \(client) is not at was not refused") }
                        output.line("ACKV \(client) \(version.version)")
                    } catch let error as StoreError where stale && error == .revisionMismatch {
                        // Refused, as it must be: no entry.
                    }
                }
            } catch {
                fail("audited write failed: \(error)")
            }
            counter += 1
        }
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("StoreCrashWriter: \(message)\n".utf8))
        exit(3)
    }

    /// The audit record of a change by `thread`.
    private static func record(_ action: AuditAction, thread: Int) -> AuditRecord {
        AuditRecord(key: "writer-\(thread)", action: action, requestID: nil) { previous in
            AuditSummary(tabsChanged: ["after-\(previous?.version ?? 0)"])
        }
    }
}
