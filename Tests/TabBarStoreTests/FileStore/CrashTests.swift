import Foundation
import Testing
import TestSupport
@testable import TabBarStore

@Suite("crash recovery")
struct CrashTests {
    /// The newest acknowledged write of one key.
    private enum Acknowledged: Equatable {
        case saved(revision: UInt64, value: StoredCustomization)
        case reset(revision: UInt64)
    }

    private static func split(_ list: Substring) -> [String] {
        list == "-" ? [] : list.split(separator: ",").map(String.init)
    }

    /// Appends the first bytes of a record (never all of it), as a write interrupted by power loss leaves it.
    private static func appendTornRecord(to journal: URL, using random: inout SplitMix64) throws {
        let payload = #"{"op":"put","seq":999999999,"client":"c1","user":"torn","revision":1,"value":"#
            + #"{"order":[],"hidden":[]}}"#
        var frame = Data()
        RecordFraming.append(Data(payload.utf8), to: &frame)
        let handle = try FileHandle(forWritingTo: journal)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: frame.prefix(Int.random(in: 1..<frame.count, using: &random)))
    }

    /// The client the writer publishes and saves for, and the one it also deletes now and then.
    private static let client = "c1"
    private static let deletedClient = "c2"

    /// One customization key of the writer.
    private struct Key: Hashable, CustomStringConvertible {
        var client: String
        var user: String
        var description: String { "\(client)/\(user)" }
    }

    @Test("SIGKILL at random moments, 50 times on one directory, loses no acknowledged write and reuses no number")
    func killRepeatedly() throws {
        let writer = try CrashWriterProcess.executable()
        let directory = try TemporaryDirectory("crash")
        defer { directory.remove() }
        let data = directory.child("data")
        var random = SplitMix64(seed: 0x7AB_C0F1)
        var acknowledged: [Key: Acknowledged] = [:]
        var newestVersion: [String: Int] = [:]
        var acknowledgements = 0
        var deletions = 0
        for cycle in 0..<50 {
            let keep = cycle % 4 < 2 ? 3 : 100
            let arguments = [data.path, "4", "\(cycle)", cycle.isMultiple(of: 2) ? "-" : "16384", "\(keep)"]
            let start: CrashWriterProcess.Start = [.immediately, .afterReady, .afterFirstAck][cycle % 3]
            let delay = Duration.milliseconds(Int.random(in: 20...250, using: &random))

            let process = try CrashWriterProcess(executable: writer, arguments: arguments)
            switch start {
            case .immediately:
                break
            case .afterReady:
                #expect(process.wait { $0 == "READY" }, "cycle \(cycle): the writer opened the store")
            case .afterFirstAck:
                #expect(process.wait { $0.hasPrefix("ACK ") }, "cycle \(cycle): the writer acknowledged a write")
            }
            #expect(process.kill(after: delay), "cycle \(cycle): the writer ran until killed")

            /// Set between `DELX` and `ACKX`: the deletion may or may not have happened.
            var deletionInFlight = false
            for line in process.lines {
                let fields = line.split(separator: " ")
                switch fields.first {
                case "ACK" where fields.count == 6:
                    let value = StoredCustomization(order: Self.split(fields[4]), hidden: Self.split(fields[5]))
                    let key = Key(client: String(fields[1]), user: String(fields[2]))
                    acknowledged[key] = .saved(revision: UInt64(fields[3])!, value: value)
                    acknowledgements += 1
                case "ACKD" where fields.count == 4:
                    let key = Key(client: String(fields[1]), user: String(fields[2]))
                    acknowledged[key] = .reset(revision: UInt64(fields[3])!)
                    acknowledgements += 1
                case "ACKV" where fields.count == 3:
                    newestVersion[String(fields[1]), default: 0] = max(
                        newestVersion[String(fields[1]), default: 0], Int(fields[2])!
                    )
                case "DELX" where fields.count == 2:
                    deletionInFlight = true
                case "ACKX" where fields.count == 2:
                    deletionInFlight = false
                    deletions += 1
                    for (key, write) in acknowledged where key.client == fields[1] {
                        if case .saved(let revision, _) = write { acknowledged[key] = .reset(revision: revision) }
                    }
                case "READY":
                    break
                default:
                    Issue.record("cycle \(cycle): unexpected line \(line)")
                }
            }

            let tornFragment = cycle % 5 == 4
            if tornFragment {
                try Self.appendTornRecord(to: data.appendingPathComponent("customizations.journal"), using: &random)
            }
            let capture = LogCapture()
            var options = FileStore.Options()
            options.keepVersions = keep
            let store = try FileStore(directory: data, options: options, logger: capture.logger)
            defer { store.close() }
            if tornFragment {
                #expect(capture.warnings.contains { $0.message.contains("torn tail") }, "cycle \(cycle)")
            }
            for (key, write) in acknowledged {
                let revision = store.currentRevision(client: key.client, user: key.user)
                let entry = store.customization(client: key.client, user: key.user)
                switch write {
                case .saved(let acked, let value):
                    #expect(revision >= acked, "cycle \(cycle): \(key) lost revision \(acked)")
                    guard revision == acked else { continue }
                    if deletionInFlight, key.client == Self.deletedClient, entry == nil {
                        acknowledged[key] = .reset(revision: acked)
                    } else {
                        #expect(entry == CustomizationEntry(revision: acked, value: value), "cycle \(cycle): \(key)")
                    }
                case .reset(let acked):
                    #expect(revision >= acked, "cycle \(cycle): \(key) lost reset \(acked)")
                    if revision == acked {
                        #expect(entry == nil, "cycle \(cycle): \(key) came back after its reset")
                    }
                }
            }

            let versions = store.versionNumbers(client: Self.client)
            let live = store.liveVersion(client: Self.client)?.version ?? 0
            #expect(live >= newestVersion[Self.client, default: 0], "cycle \(cycle): a version was lost")
            #expect(versions == Array((live - versions.count + 1)..<(live + 1)), "cycle \(cycle): no gaps up to live")
            #expect(versions.count <= keep && versions.count >= min(live, 3), "cycle \(cycle): \(versions)")
            if keep == 3 {
                #expect(versions.count == min(live, 3), "cycle \(cycle): pruned at open")
            }
            #expect(store.versionHistory(client: Self.client).map(\.version) == versions.reversed())
            let files = try? FileManager.default.contentsOfDirectory(
                atPath: directory.path("data", "clients", Self.client, "versions")
            )
            let onDisk = (files ?? []).compactMap(VersionFile.number(fromFileName:)).sorted()
            #expect(onDisk == versions, "cycle \(cycle): the files are the retained versions")

            let next = try store.publish(
                client: Self.deletedClient, document: Data(#"{"checker":\#(cycle)}"#.utf8), note: nil,
                rollbackOf: nil
            )
            #expect(
                next.version > newestVersion[Self.deletedClient, default: 0],
                "cycle \(cycle): version \(next.version) of the deleted client was handed out before"
            )
            newestVersion[Self.deletedClient] = next.version
        }
        #expect(acknowledgements > 0)
        #expect(deletions > 0)
    }
}
