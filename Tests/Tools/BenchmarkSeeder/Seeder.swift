import Dispatch
import Foundation
import Logging
import TabBarStore

/// Fills a data directory with customizations of users `u0` … `u<count-1>` through `FileStore.saveCustomization`,
/// from many threads at once so that group commit batches them, printing progress each second and totals at the end.
///
/// ```
/// BenchmarkSeeder <data-dir> [--count N] [--threads T] [--client ID] [--keep-journal | --compact] [--samples K]
/// ```
/// - `--count` users to write (default 1000000; 0 with `--compact` only compacts what the directory holds),
///   `--threads` writer threads (default 64), `--client` (default `ios-phone`);
/// - `--keep-journal` raises the compaction threshold so that every write stays in the journal; `--compact` compacts
///   once at the end so that everything is in the snapshot; neither leaves the store's default threshold in charge;
/// - `--samples` how many `sample <user> <order> <hidden>` lines to print (spread over the users, default 3), with
///   the order and hidden ids joined by `,` (`-` when none), for checking what the service reads back.
///
/// The data directory does not need a config: customizations are stored apart from configs, and `tabconfig serve`
/// publishes the sample config for `ios-phone` on a data directory without clients.
struct Seeder {
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static let usage =
        "usage: BenchmarkSeeder <data-dir> [--count N] [--threads T] [--client ID] [--keep-journal | --compact] "
        + "[--samples K]"

    var directory: URL
    var count = 1_000_000
    var threads = 64
    var client = "ios-phone"
    var keepJournal = false
    var compact = false
    var samples = 3

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        guard let path = remaining.popFirst(), !path.hasPrefix("--") else { throw UsageError(description: Self.usage) }
        directory = URL(fileURLWithPath: path)
        func number(_ name: String, minimum: Int) throws -> Int {
            guard let text = remaining.popFirst(), let value = Int(text), value >= minimum else {
                throw UsageError(description: "\(name) needs an integer of at least \(minimum)")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--count": count = try number(argument, minimum: 0)
            case "--threads": threads = try number(argument, minimum: 1)
            case "--samples": samples = try number(argument, minimum: 0)
            case "--keep-journal": keepJournal = true
            case "--compact": compact = true
            case "--client":
                guard let value = remaining.popFirst(), !value.isEmpty else {
                    throw UsageError(description: "--client needs a client id")
                }
                client = value
            default:
                throw UsageError(description: "unknown argument \(argument)\n\(Self.usage)")
            }
        }
        if keepJournal && compact {
            throw UsageError(description: "--keep-journal and --compact exclude each other")
        }
    }

    func run() throws {
        var logger = Logger(label: "BenchmarkSeeder") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .info
        var options = FileStore.Options()
        if keepJournal { options.compactionThreshold = Int.max }
        let openStart = DispatchTime.now()
        let store = try FileStore(directory: directory, options: options, logger: logger)
        defer { store.close() }
        let before = store.customizationCount
        Self.say(
            String(
                format: "opened the store (%d customizations) in %.1f s", before, Self.seconds(since: openStart)))
        if count > 0 { try seed(store) }
        if compact {
            let compactStart = DispatchTime.now()
            try store.compact()
            Self.say(String(format: "compacted in %.1f s", Self.seconds(since: compactStart)))
        }
        Self.say("customizations in the store: \(store.customizationCount) (before: \(before))")
        for sample in sampleIndices() {
            let value = SeedCustomization.make(sample)
            let hidden = value.hidden.isEmpty ? "-" : value.hidden.joined(separator: ",")
            Self.say("sample u\(sample) \(value.order.joined(separator: ",")) \(hidden)")
        }
    }

    /// Writes the customizations from `threads` threads, printing progress each second and the totals.
    private func seed(_ store: FileStore) throws {
        Self.say("seeding \(count) customizations of client \(client) into \(directory.path) with \(threads) threads")
        let syncsBefore = store.syncCount
        let progress = SeedProgress()
        let start = DispatchTime.now()
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            Thread.detachNewThread { [client, count] in
                Self.write(store: store, client: client, count: count, progress: progress)
                group.leave()
            }
        }
        var last = 0
        while group.wait(timeout: .now() + 1) == .timedOut {
            let done = progress.completed
            Self.say("  \(done) written, \(done - last)/s")
            last = done
        }
        let seconds = Self.seconds(since: start)
        if let error = progress.error { throw UsageError(description: "a write failed: \(error)") }
        let syncs = store.syncCount - syncsBefore
        Self.say(
            String(
                format: "seeded %d customizations in %.1f s (%.0f/s), %d fsyncs (%.1f writes per fsync)",
                count, seconds, Double(count) / seconds, syncs, Double(count) / Double(max(syncs, 1))))
    }

    /// One writer thread: claims user numbers and saves their customizations until all are claimed.
    private static func write(store: FileStore, client: String, count: Int, progress: SeedProgress) {
        while let index = progress.claim(below: count) {
            do {
                _ = try store.saveCustomization(
                    client: client, user: "u\(index)", SeedCustomization.make(index), expectedRevision: nil)
                progress.finished()
            } catch {
                progress.fail("u\(index): \(error)")
            }
        }
    }

    /// The users whose values `run` prints: the first, the last and some evenly spread between.
    private func sampleIndices() -> [Int] {
        guard samples > 0, count > 0 else { return [] }
        guard samples > 1 else { return [0] }
        return Array(Set((0..<samples).map { $0 * (count - 1) / (samples - 1) })).sorted()
    }

    /// Writes a line to stdout at once (no buffering, so progress shows through a pipe).
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}
