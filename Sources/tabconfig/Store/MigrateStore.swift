import ArgumentParser
import Foundation
import Logging
import TabBarAPI
import TabBarStore

/// `tabconfig migrate-store`: copies a data directory's file store into a PostgreSQL database.
struct MigrateStore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-store",
        abstract: "Copy a data directory's configs (with their history) and tab orders into PostgreSQL.",
        discussion: """
            Run it with the service stopped. Version numbers, dates, notes and revisions are kept, and the audit log \
            in its order; what the database already holds at the same or a newer number (or the same audit entry) is \
            left alone, so running it again changes nothing. At the end the versions per client, the customizations \
            and the audit entries in the database are counted against the source. \
            Exit status: 0 copied and verified; 1 the counts differ or a write failed; 2 a store could not be opened.
            """)

    @Option(help: "The data directory to copy from (TABCONFIG_DATA_DIR, default ./data).")
    var from: String?
    @Option(help: "The PostgreSQL database to copy into, postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…].")
    var to: String

    func run() throws {
        #if PostgreSQL
            let directory = StoreCommandDirectory.resolve(from)
            let logger = Logger(label: "tabconfig") { _ in SwiftLogNoOpLogHandler() }
            let source: FileStore
            let target: PostgresStore
            do {
                let url = try ApplicationConfiguration.parseStoreURL(to)
                source = try FileStore(directory: directory, logger: logger)
                target = try PostgresStore(url: url, logger: logger)
            } catch {
                StandardError.print("cannot open the stores: \(error)")
                throw ExitCode(2)
            }
            defer {
                source.close()
                target.close()
            }
            let started = Date()
            let bar = ProgressBar()
            do {
                let report = try StoreMigration.run(from: source, to: target, progress: bar.show)
                bar.finish()
                let seconds = Date().timeIntervalSince(started)
                print(
                    "copied \(report.versions) versions of \(report.clients) clients and \(report.customizations) "
                        + "customizations (\(report.resetCustomizations) reset) with \(report.auditEntries) audit entries "
                        + "in \(String(format: "%.1f", seconds)) s; written: \(report.versionsWritten) versions, "
                        + "\(report.customizationsWritten) customizations, \(report.auditEntriesWritten) audit entries "
                        + "(the rest were there already); counts verified")
                if report.rollouts > 0 {
                    print("copied \(report.rollouts) staged rollout states; written: \(report.rolloutsWritten)")
                }
                if report.builds > 0 {
                    print("copied \(report.builds) build manifests; written: \(report.buildsWritten)")
                }
                if report.unreadable > 0 {
                    print("\(report.unreadable) customizations could not be read in the source: copied as reset")
                }
            } catch {
                bar.finish()
                StandardError.print("migration failed: \(error)")
                throw ExitCode.failure
            }
        #else
            StandardError.print(PostgresStoreURL.notBuiltIn)
            throw ExitCode(2)
        #endif
    }
}
