import Foundation
import Testing
import TestSupport
@testable import TabBarStore

extension CrashTests {
    @Test("SIGKILL during audited publishes and deletes: every acknowledged change has one entry, every entry a change")
    func killWhileAuditing() throws {
        let writer = try CrashWriterProcess.executable()
        let directory = try TemporaryDirectory("crash-audit")
        defer { directory.remove() }
        let data = directory.child("data")
        var random = SplitMix64(seed: 0xA0D1_7C0F)
        /// Acknowledged publishes as `client/version`, and acknowledged deletions of a live client, per client.
        var published: [String] = []
        var deletions: [String: Int] = [:]
        let threads = 3
        for cycle in 0..<10 {
            let arguments = ["--audit", data.path, "\(threads)", "\(cycle)"]
            let process = try CrashWriterProcess(executable: writer, arguments: arguments)
            if cycle.isMultiple(of: 2) {
                #expect(process.wait { $0 == "READY" }, "cycle \(cycle): the writer opened the store")
            }
            #expect(process.kill(after: .milliseconds(Int.random(in: 60...300, using: &random))), "cycle \(cycle)")
            for line in process.lines {
                let fields = line.split(separator: " ").map(String.init)
                switch (fields.first, fields.count) {
                case ("ACKV", 3):
                    published.append("\(fields[1])/\(fields[2])")
                case ("ACKX", 3):
                    if fields[2] == "1" { deletions[fields[1], default: 0] += 1 }
                case ("DELX", 2), ("READY", 1):
                    break
                default:
                    Issue.record("cycle \(cycle): unexpected line \(line)")
                }
            }

            let store = try FileStore(directory: data, logger: .silent)
            defer { store.close() }
            let entries = try store.auditEntries(AuditQuery(limit: .max))
            #expect(entries.map(\.sequence) == Array(0..<entries.count).map { $0 + 1 }, "cycle \(cycle)")
            let changes = entries.filter { $0.action != .delete }
            let counts = Dictionary(changes.map { ("\($0.client)/\($0.version)", 1) }, uniquingKeysWith: +)
            #expect(counts.values.allSatisfy { $0 == 1 }, "cycle \(cycle): a version number has two entries")
            for acknowledged in published where counts[acknowledged] != 1 {
                Issue.record("cycle \(cycle): the acknowledged publish \(acknowledged) has no entry")
            }
            for (client, acknowledged) in deletions {
                let recorded = entries.filter { $0.action == .delete && $0.client == client }.count
                #expect(recorded >= acknowledged, "cycle \(cycle): \(client) lost a deletion's entry")
            }
            for entry in entries {
                let versions = store.versionNumbers(client: entry.client)
                #expect(entry.summary.tabsChanged == ["after-\(entry.previousVersion ?? 0)"], "cycle \(cycle)")
                if entry.action == .delete {
                    let kept = versions.filter { $0 <= entry.version }
                    #expect(kept.isEmpty, "cycle \(cycle): deleted \(entry.client) still has \(kept)")
                    continue
                }
                let deletedSince = entries.contains {
                    $0.action == .delete && $0.client == entry.client && $0.sequence > entry.sequence
                        && $0.version >= entry.version
                }
                let name = "\(entry.client) version \(entry.version)"
                #expect(versions.contains(entry.version) || deletedSince, "cycle \(cycle): \(name) is not in the store")
            }
        }
        #expect(published.count > 0)
        #expect(deletions.values.reduce(0, +) > 0)
    }
}
