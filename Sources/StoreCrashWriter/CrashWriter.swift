import Foundation
import Glibc
import Logging
import TabBarStore

/// Writes customizations (and now and then a config version or a reset) to a `FileStore` from several threads
/// until it is killed, printing a line to stdout after each acknowledged write:
///
/// - `READY` once the store is open;
/// - `ACK <client> <user> <revision> <order joined by ,> <hidden joined by , or ->` after a save;
/// - `ACKD <client> <user> <revision>` after a reset (the revision the reset took);
/// - `ACKV <client> <version>` after a publish.
///
/// Thread `t` writes only users `u<t>-<n>`, so each key's lines appear in the order its writes happened.
/// It exits by itself after two minutes, in case nobody kills it.
struct CrashWriter {
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static let client = "c1"

    var directory: URL
    var threads: Int
    var seed: UInt64
    var compactionThreshold: Int?

    init(arguments: [String]) throws {
        guard (3...4).contains(arguments.count), let threads = Int(arguments[1]), threads > 0,
            let seed = UInt64(arguments[2])
        else {
            throw UsageError(description: "usage: StoreCrashWriter <dir> <writerThreads> <seed> [compactionThreshold]")
        }
        directory = URL(fileURLWithPath: arguments[0])
        self.threads = threads
        self.seed = seed
        if arguments.count == 4 {
            guard let threshold = Int(arguments[3]), threshold > 0 else {
                throw UsageError(description: "compactionThreshold must be a positive integer")
            }
            compactionThreshold = threshold
        }
    }

    func run() throws -> Never {
        var logger = Logger(label: "StoreCrashWriter") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        var options = FileStore.Options()
        if let compactionThreshold { options.compactionThreshold = compactionThreshold }
        let store = try FileStore(directory: directory, options: options, logger: logger)
        let output = Output()
        output.line("READY")
        for thread in 0..<threads {
            let seed = seed
            Thread.detachNewThread {
                Self.write(store: store, thread: thread, seed: seed, output: output)
            }
        }
        sleep(120)
        exit(0)
    }

    /// One writer thread's loop.
    private static func write(store: FileStore, thread: Int, seed: UInt64, output: Output) {
        var revisions: [String: UInt64] = [:]
        var counter = 0
        while true {
            let user = "u\(thread)-\(counter % 20)"
            do {
                if counter % 13 == 12, let revision = revisions[user] {
                    if try store.deleteCustomization(client: client, user: user) {
                        revisions[user] = revision + 1
                        output.line("ACKD \(client) \(user) \(revision + 1)")
                    }
                } else if thread == 0, counter % 100 == 99 {
                    let document = Data(#"{"writer":\#(seed),"counter":\#(counter)}"#.utf8)
                    let version = try store.publish(client: client, document: document, note: nil, rollbackOf: nil)
                    output.line("ACKV \(client) \(version.version)")
                } else {
                    let value = StoredCustomization(
                        order: ["t\(thread)", "k\(counter)", "s\(seed)"],
                        hidden: counter % 3 == 0 ? ["k\(counter)"] : []
                    )
                    let entry = try store.saveCustomization(client: client, user: user, value, expectedRevision: nil)
                    revisions[user] = entry.revision
                    let hidden = value.hidden.isEmpty ? "-" : value.hidden.joined(separator: ",")
                    output.line(
                        "ACK \(client) \(user) \(entry.revision) \(value.order.joined(separator: ",")) \(hidden)"
                    )
                }
            } catch {
                FileHandle.standardError.write(Data("StoreCrashWriter: write failed: \(error)\n".utf8))
                exit(3)
            }
            counter += 1
        }
    }
}
