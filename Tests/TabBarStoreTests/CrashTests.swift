import Foundation
import Testing
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

    @Test("SIGKILL at random moments, 50 times on one directory, loses no acknowledged write")
    func killRepeatedly() throws {
        let writer = try CrashWriterProcess.executable()
        let directory = try TemporaryDirectory("crash")
        defer { directory.remove() }
        let data = directory.child("data")
        var random = SplitMix64(seed: 0x7AB_C0F1)
        var acknowledged: [String: Acknowledged] = [:]
        var newestVersion = 0
        var acknowledgements = 0
        for cycle in 0..<50 {
            var arguments = [data.path, "4", "\(cycle)"]
            if !cycle.isMultiple(of: 2) { arguments.append("16384") }
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

            for line in process.lines {
                let fields = line.split(separator: " ")
                switch fields.first {
                case "ACK" where fields.count == 6:
                    let value = StoredCustomization(order: Self.split(fields[4]), hidden: Self.split(fields[5]))
                    acknowledged[String(fields[2])] = .saved(revision: UInt64(fields[3])!, value: value)
                    acknowledgements += 1
                case "ACKD" where fields.count == 4:
                    acknowledged[String(fields[2])] = .reset(revision: UInt64(fields[3])!)
                    acknowledgements += 1
                case "ACKV" where fields.count == 3:
                    newestVersion = max(newestVersion, Int(fields[2])!)
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
            let store = try FileStore(directory: data, logger: capture.logger)
            defer { store.close() }
            if tornFragment {
                #expect(capture.warnings.contains { $0.message.contains("torn tail") }, "cycle \(cycle)")
            }
            for (user, write) in acknowledged {
                let revision = store.currentRevision(client: "c1", user: user)
                let entry = store.customization(client: "c1", user: user)
                switch write {
                case .saved(let acked, let value):
                    #expect(revision >= acked, "cycle \(cycle): \(user) lost revision \(acked)")
                    if revision == acked {
                        #expect(entry == CustomizationEntry(revision: acked, value: value), "cycle \(cycle): \(user)")
                    }
                case .reset(let acked):
                    #expect(revision >= acked, "cycle \(cycle): \(user) lost reset \(acked)")
                    if revision == acked {
                        #expect(entry == nil, "cycle \(cycle): \(user) came back after its reset")
                    }
                }
            }
            let versions = store.versionNumbers(client: "c1")
            #expect(versions == Array(1..<(versions.count + 1)), "cycle \(cycle): versions have no gaps")
            #expect(versions.count >= newestVersion, "cycle \(cycle): version \(newestVersion) was acknowledged")
            #expect((store.liveVersion(client: "c1")?.version ?? 0) == versions.count)
        }
        #expect(acknowledgements > 0)
    }
}
