import ArgumentParser
import Foundation
import TabBarAPI
import TabBarModel

/// `tabconfig apply DIR --url URL`: publishes the configs of DIR that differ from the live ones.
struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Publish the configs in DIR (<client>.json each) that differ from a running service's live ones.",
        discussion: """
            Every file is first sent as a dry run (PUT …/config?dryRun=true): the service checks it as it checks a \
            publish and says what would change. When any file is refused, nothing is published. Then each file \
            that differs is published with If-Match naming the live version it was compared with (If-None-Match: * \
            for a new client), so a publish made meanwhile is never overwritten; a file equal to the live config \
            is not published. With --dry-run nothing is published and each difference is printed, one line per \
            change (POINTER: BEFORE → AFTER). Tabs a registered build could not open (its build manifest lacks \
            their destination) are printed as warnings, and so are tabs no registered build can open; they never \
            stop a publish. A live client without a file is reported, never deleted.
            Exit status (for CI; 2 as `terraform plan -detailed-exitcode`):
              0   every file equal to the live config, or published
              1   a file invalid or unreadable, refused by the service, the service
                  unreachable, or a live config changed since the dry run (412)
              2   --dry-run: some file differs from the live config
              64  wrong usage (no such DIR, no token, a bad --url)
            """)

    @Argument(help: "The directory of <client>.json files, as `tabconfig export` writes it.")
    var directory: String
    @OptionGroup var server: ServerOptions
    @Flag(name: .customLong("dry-run"), help: "Print what would change; publish nothing.")
    var dryRun = false
    @Option(help: "Note stored with each version published (at most 256 characters).")
    var note: String?

    /// A file the dry run accepted.
    private struct Checked {
        var file: ConfigDirectory.File
        var document: Data
        var answer: DryRunBody
    }

    func validate() throws {
        guard ConfigDirectory(path: directory).exists else {
            throw ValidationError("\(directory) is not a directory.")
        }
    }

    func run() throws {
        let admin = server.client()
        do {
            let (checked, refused) = try check(ConfigDirectory(path: directory), admin)
            try reportClientsWithoutFiles(checked.map(\.file.client) + refused, admin)
            let differing = checked.filter(\.answer.changed)
            for entry in checked where !entry.answer.changed {
                print("\(entry.file.name): equal to version \(entry.answer.liveVersion)")
                printBuildWarnings(entry)
            }
            if dryRun {
                for entry in differing {
                    printDifferences(entry)
                    printBuildWarnings(entry)
                }
                print("\(Self.counted(checked.count + refused.count, "file")): \(differing.count) differing")
            }
            guard refused.isEmpty else {
                StandardError.print("\(Self.counted(refused.count, "file")) refused; nothing published")
                throw ExitCode.failure
            }
            if dryRun {
                if !differing.isEmpty { throw ExitCode(2) }
                return
            }
            var failed = 0
            for entry in differing where try !publish(entry, admin) {
                failed += 1
            }
            print("\(Self.counted(checked.count, "file")): \(differing.count - failed) published, \(failed) failed")
            if failed > 0 { throw ExitCode.failure }
        } catch let failure as AdminClient.Failure {
            StandardError.print(failure.description)
            throw ExitCode.failure
        }
    }

    /// Sends every file as a dry run: the accepted ones with the answer, and the clients of the refused ones, each
    /// refusal printed with the file's name.
    private func check(_ folder: ConfigDirectory, _ admin: AdminClient) throws -> ([Checked], [String]) {
        var checked: [Checked] = []
        var refused: [String] = []
        for file in try folder.files() {
            guard Identifiers.isValidClient(file.client) else {
                StandardError.print("\(file.name): not <client>.json with a client id (\(Identifiers.clientPattern))")
                refused.append(file.client)
                continue
            }
            let document: Data
            do {
                document = try Data(contentsOf: file.url)
            } catch {
                StandardError.print("\(file.name): cannot read: \(error.localizedDescription)")
                refused.append(file.client)
                continue
            }
            let reply = try admin.putConfig(file.client, document: document, dryRun: true, note: note)
            guard reply.status == 200 else {
                reply.problemLines.forEach { StandardError.print("\(file.name): \($0)") }
                refused.append(file.client)
                continue
            }
            let answer = try reply.decode(DryRunBody.self, answering: file.name)
            checked.append(Checked(file: file, document: document, answer: answer))
        }
        return (checked, refused)
    }

    private func reportClientsWithoutFiles(_ files: [String], _ admin: AdminClient) throws {
        let named = Set(files)
        for live in try admin.clients() where !named.contains(live.client) {
            print("\(live.client): live (version \(live.version)) but no file in \(directory); left alone")
        }
    }

    private func printDifferences(_ entry: Checked) {
        let answer = entry.answer
        let base = answer.liveVersion == 0 ? "a new client" : "version \(answer.liveVersion)"
        print("\(entry.file.name): \(Self.counted(answer.diff.changes.count, "change")) against \(base)")
        if let summary = answer.diff.tabSummary { print("  \(summary)") }
        for change in answer.diff.changes {
            print("  \(change.line)")
        }
    }

    /// The dry run's build warnings: each registered build that would not show a tab, and each tab no build can open.
    private func printBuildWarnings(_ entry: Checked) {
        for build in entry.answer.builds ?? [] {
            let number = build.buildNumber.map { " (build \($0))" } ?? ""
            for tab in build.tabs {
                print(
                    "\(entry.file.name): warning: \(build.platform) \(build.appVersion)\(number) will not show "
                        + "\(tab.id): \(tab.missingPointer) \(tab.reason)")
            }
        }
        for tab in entry.answer.unopenable ?? [] {
            print("\(entry.file.name): warning: no registered build can open \(tab.id): \(tab.missingPointer)")
        }
    }

    /// Publishes one file on the condition that the live version is still the one it was compared with; true when
    /// it was published.
    private func publish(_ entry: Checked, _ admin: AdminClient) throws -> Bool {
        let condition = entry.answer.liveETag.map { ["If-Match": $0] } ?? ["If-None-Match": "*"]
        let reply = try admin.putConfig(
            entry.file.client, document: entry.document, dryRun: false, note: note, headers: condition)
        switch reply.status {
        case 201:
            let published = try reply.decode(AdminClient.LiveConfig.self, answering: entry.file.name)
            let changes = Self.counted(entry.answer.diff.changes.count, "change")
            print("\(entry.file.name): published version \(published.version) (\(changes))")
            printBuildWarnings(entry)
            return true
        case 412:
            StandardError.print(
                "\(entry.file.name): not published: the live config changed since the dry run; run apply again")
            return false
        default:
            reply.problemLines.forEach { StandardError.print("\(entry.file.name): \($0)") }
            return false
        }
    }

    /// "1 file", "2 files".
    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
