import ArgumentParser
import Foundation
import Logging
import TabBarAPI
import TabBarStore

/// `tabconfig store`: offline checks of a data directory.
struct Store: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check or repair a data directory offline.",
        discussion: """
            `verify` reads the snapshot, the journal and every version file and reports valid records and damage. \
            `repair` keeps every valid record, moves damaged bytes to side files (<file>.damaged-<offset>-<time>) and \
            rewrites what needs it; it refuses while a server holds the directory.
            """,
        subcommands: [StoreVerify.self, StoreRepair.self])
}

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

/// The data directory the `store` subcommands work on, chosen as `serve` chooses it.
enum StoreCommandDirectory {
    /// `--data-dir` when given, else TABCONFIG_DATA_DIR, else ./data. Other TABCONFIG_* variables are not read, so one
    /// that `serve` would reject cannot stop a check of the data.
    static func resolve(_ dataDir: String?) -> URL {
        if let dataDir { return URL(fileURLWithPath: dataDir) }
        let environment = ProcessInfo.processInfo.environment.filter { $0.key == "TABCONFIG_DATA_DIR" }
        let configuration = try? ApplicationConfiguration(environment: environment)
        return configuration?.dataDirectory ?? ApplicationConfiguration().dataDirectory
    }
}
