import Foundation
import Glibc
import Logging
import TabBarStore

/// Writes customizations (and now and then a config version, a reset or a client deletion) to a `FileStore` from
/// several threads until it is killed, printing a line to stdout after each acknowledged write:
///
/// - `READY` once the store is open;
/// - `ACK <client> <user> <revision> <order joined by ,> <hidden joined by , or ->` after a save;
/// - `ACKD <client> <user> <revision>` after a reset (the revision the reset took);
/// - `ACKV <client> <version>` after a publish;
/// - `DELX <client>` before a client deletion and `ACKX <client>` after it.
///
/// Thread `t` writes only users `u<t>-<n>` of client `c1`, so each key's lines appear in the order its writes
/// happened. Thread 0 also publishes `c1`; thread 1 alone saves users `w-<n>` of client `c2`, publishes `c2` and
/// deletes `c2`, so every `c2` line comes from one thread, in order.
///
/// With `--audit` first, it makes audited config changes instead (`CrashWriter+Audit`).
/// It exits by itself after two minutes, in case nobody kills it.
struct CrashWriter {
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static let client = "c1"
    static let deletedClient = "c2"

    var directory: URL
    var threads: Int
    var seed: UInt64
    var compactionThreshold: Int?
    var keepVersions: Int?
    /// Whether the threads make audited config changes rather than customization writes.
    var audit = false

    init(arguments: [String]) throws {
        let usage =
            "usage: StoreCrashWriter [--audit] <dir> <writerThreads> <seed> [<compactionThreshold>|- [<keepVersions>]]"
        var arguments = arguments
        if arguments.first == "--audit" {
            audit = true
            arguments.removeFirst()
        }
        guard (3...5).contains(arguments.count), let threads = Int(arguments[1]), threads > 0,
            let seed = UInt64(arguments[2])
        else {
            throw UsageError(description: usage)
        }
        directory = URL(fileURLWithPath: arguments[0])
        self.threads = threads
        self.seed = seed
        if arguments.count >= 4, arguments[3] != "-" {
            guard let threshold = Int(arguments[3]), threshold > 0 else {
                throw UsageError(description: "compactionThreshold must be a positive integer or -")
            }
            compactionThreshold = threshold
        }
        if arguments.count == 5 {
            guard let keep = Int(arguments[4]), keep > 0 else {
                throw UsageError(description: "keepVersions must be a positive integer")
            }
            keepVersions = keep
        }
    }

    func run() throws -> Never {
        var logger = Logger(label: "StoreCrashWriter") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        var options = FileStore.Options()
        if let compactionThreshold { options.compactionThreshold = compactionThreshold }
        if let keepVersions { options.keepVersions = keepVersions }
        let store = try FileStore(directory: directory, options: options, logger: logger)
        let output = Output()
        output.line("READY")
        for thread in 0..<threads {
            let (seed, audit) = (seed, audit)
            Thread.detachNewThread {
                if audit {
                    Self.writeAudited(store: store, thread: thread, seed: seed, output: output)
                } else {
                    Self.write(store: store, thread: thread, seed: seed, output: output)
                }
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
                if thread == 1, counter % 10 == 3 {
                    try writeDeletedClient(store: store, counter: counter, seed: seed, output: output)
                } else if counter % 13 == 12, let revision = revisions[user] {
                    if try store.deleteCustomization(client: client, user: user) {
                        revisions[user] = revision + 1
                        output.line("ACKD \(client) \(user) \(revision + 1)")
                    }
                } else if thread == 0, counter % 25 == 24 {
                    let document = Data(#"{"writer":\#(seed),"counter":\#(counter)}"#.utf8)
                    let version = try store.publish(client: client, document: document, note: nil, rollbackOf: nil)
                    output.line("ACKV \(client) \(version.version)")
                } else {
                    let saved = try save(
                        store: store, client: client, user: user, thread: thread, counter: counter, seed: seed
                    )
                    revisions[user] = saved.revision
                    output.line(saved.line)
                }
            } catch {
                FileHandle.standardError.write(Data("StoreCrashWriter: write failed: \(error)\n".utf8))
                exit(3)
            }
            counter += 1
        }
    }

    /// Thread 1's writes to the client it deletes now and then: mostly saves, sometimes a publish or a deletion.
    private static func writeDeletedClient(store: FileStore, counter: Int, seed: UInt64, output: Output) throws {
        let client = deletedClient
        switch counter % 120 {
        case 43:
            output.line("DELX \(client)")
            _ = try store.deleteClient(client)
            output.line("ACKX \(client)")
        case 13, 73, 103:
            let document = Data(#"{"writer":\#(seed),"deletable":\#(counter)}"#.utf8)
            let version = try store.publish(client: client, document: document, note: nil, rollbackOf: nil)
            output.line("ACKV \(client) \(version.version)")
        default:
            let user = "w-\(counter % 7)"
            let saved = try save(store: store, client: client, user: user, thread: 1, counter: counter, seed: seed)
            output.line(saved.line)
        }
    }

    /// Saves one customization; returns the revision it took and its `ACK` line.
    private static func save(
        store: FileStore, client: String, user: String, thread: Int, counter: Int, seed: UInt64
    ) throws -> (revision: UInt64, line: String) {
        let value = StoredCustomization(
            order: ["t\(thread)", "k\(counter)", "s\(seed)"],
            hidden: counter % 3 == 0 ? ["k\(counter)"] : []
        )
        let entry = try store.saveCustomization(client: client, user: user, value, expectedRevision: nil)
        let hidden = value.hidden.isEmpty ? "-" : value.hidden.joined(separator: ",")
        let order = value.order.joined(separator: ",")
        return (entry.revision, "ACK \(client) \(user) \(entry.revision) \(order) \(hidden)")
    }
}
