import ArgumentParser
import Foundation
import Logging
import TabBarAPI

/// `tabconfig import-plist FILE --client ID`: publishes a config converted from an `ApplicationHierarchy.plist`.
struct ImportPlist: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-plist",
        abstract: "Publish a config converted from an ApplicationHierarchy.plist (XML or binary) into the data directory.",
        discussion: """
            The server must not be running on the same data directory; use POST /v1/import/plist for a running server.
            Each problem is printed as FILE: POINTER: MESSAGE, then a count.
            Exit status:
              0   published
              1   not published: problems, or the store refused
              2   the file cannot be read
              64  wrong usage
            """)

    @Argument(help: "Path of the ApplicationHierarchy.plist; - reads standard input.")
    var file: String
    @Option(help: "Client id to publish for.")
    var client: String
    @Option(name: .customLong("data-dir"), help: "Data directory (TABCONFIG_DATA_DIR, default ./data).")
    var dataDir: String?
    @Option(help: "Note stored with the new version.")
    var note: String?

    func run() throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "tabconfig")
        logger.logLevel = .warning
        let environment = try ApplicationConfiguration(environment: ProcessInfo.processInfo.environment)
        let directory = dataDir.map { URL(fileURLWithPath: $0) } ?? environment.dataDirectory
        let input = InputFile(path: file)
        let plist = try input.read()
        do {
            let version = try PlistImport.publish(
                plist: plist, client: client, note: note, dataDirectory: directory,
                keepVersions: environment.keepVersions, logger: logger)
            print("published version \(version) of client \(client)")
        } catch let failure as PlistImport.Failure {
            for line in failure.lines {
                StandardError.print("\(input.name): \(line)")
            }
            input.printProblemCount(failure.lines.count)
            throw ExitCode.failure
        } catch {
            StandardError.print("\(input.name): not published: \(error)")
            throw ExitCode.failure
        }
    }
}
