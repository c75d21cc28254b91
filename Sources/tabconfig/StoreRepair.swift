import ArgumentParser
import Foundation
import Logging
import TabBarAPI
import TabBarStore

/// `tabconfig store repair`: keeps every valid record of a damaged data directory and moves the damage aside.
struct StoreRepair: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Keep every valid record, move damaged bytes to side files and rewrite the damaged files.",
        discussion: """
            The journal keeps every valid record on both sides of the damage; the snapshot keeps its intact entries \
            (it reports any declared entries that were lost); a damaged version file is moved aside and its number \
            is never reused. Side files are written and fsynced before anything is rewritten, and nothing is deleted. \
            Exit status: 0 repaired (or nothing to repair; it prints what it did); 1 the repair failed; 2 refused \
            because a server (or another store) holds the data directory.
            """)

    @Option(name: .customLong("data-dir"), help: "Data directory (TABCONFIG_DATA_DIR, default ./data).")
    var dataDir: String?

    func run() throws {
        let directory = StoreCommandDirectory.resolve(dataDir)
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "tabconfig")
        logger.logLevel = .warning
        let report: StoreCheckReport
        do {
            report = try StoreRecovery.repair(directory: directory, logger: logger)
        } catch let error as StoreOpenError where error.directoryInUse {
            StandardError.print("refused: \(error); stop the server first")
            throw ExitCode(2)
        } catch {
            StandardError.print("repair of \(directory.path) failed: \(error)")
            throw ExitCode.failure
        }
        for line in StoreReportText.repairLines(report) {
            print(line)
        }
    }
}
