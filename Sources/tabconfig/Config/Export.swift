import ArgumentParser
import Foundation
import TabBarModel

/// `tabconfig export DIR --url URL`: writes every client's live config into DIR as `<client>.json`.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write every client's live config from a running service into DIR, one <client>.json each.",
        discussion: """
            Each file holds the source document only (not its version), indented, keys sorted, with a trailing \
            newline: the same config always gives the same bytes, so a repository that holds DIR shows a change \
            only where a config changed. A file whose content is already that is left untouched; files of \
            clients the service does not have are reported and left alone. DIR is created if missing. Edit the \
            files, review them, then publish with `tabconfig apply DIR`.
            Exit status:
              0   every live config written
              1   the service cannot be reached or refused, or a file cannot be written
              64  wrong usage
            """)

    @Argument(help: "The directory to write into.")
    var directory: String
    @OptionGroup var server: ServerOptions

    func run() throws {
        let admin = server.client()
        let folder = ConfigDirectory(path: directory)
        do {
            let clients = try admin.clients()
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: directory, isDirectory: true), withIntermediateDirectories: true)
            for live in clients {
                let file = folder.file(for: live.client)
                let config = try admin.liveConfig(live.client)
                let data = CanonicalJSON.encodePretty(config.config)
                if (try? Data(contentsOf: file.url)) == data {
                    print("\(file.name): version \(config.version), unchanged")
                } else {
                    try data.write(to: file.url, options: .atomic)
                    print("\(file.name): version \(config.version) written")
                }
            }
            let live = Set(clients.map(\.client))
            for file in try folder.files() where !live.contains(file.client) {
                print("\(file.name): no such client on the service; left alone")
            }
        } catch let failure as AdminClient.Failure {
            StandardError.print(failure.description)
            throw ExitCode.failure
        } catch {
            StandardError.print("\(directory): cannot write: \(error.localizedDescription)")
            throw ExitCode.failure
        }
    }
}
