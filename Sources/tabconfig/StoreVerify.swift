import ArgumentParser
import Foundation
import TabBarAPI
import TabBarStore

/// `tabconfig store verify`: reports the valid records and any damage in a data directory, changing nothing.
struct StoreVerify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Report the valid records and any damage in a data directory (read-only).",
        discussion: """
            Exit status: 0 every file is intact; 1 damage found (each damaged range is listed with what follows it \
            and whether `serve` recovers by itself or needs `tabconfig store repair`); 2 the directory could not be \
            read. Safe while a server runs, but a record being written at that moment can show as a torn tail.
            """)

    @Option(name: .customLong("data-dir"), help: "Data directory (TABCONFIG_DATA_DIR, default ./data).")
    var dataDir: String?

    func run() throws {
        let directory = StoreCommandDirectory.resolve(dataDir)
        let report: StoreCheckReport
        do {
            report = try StoreRecovery.verify(directory: directory)
        } catch {
            StandardError.print("cannot verify \(directory.path): \(error)")
            throw ExitCode(2)
        }
        for line in StoreReportText.verifyLines(report) {
            print(line)
        }
        if !report.isClean { throw ExitCode.failure }
    }
}
