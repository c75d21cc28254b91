import ArgumentParser
import Foundation
import TabBarModel

/// `tabconfig validate FILE`: checks a config document offline and prints every problem.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a config document; prints every problem and exits 1 if there is any.")

    @Argument(help: "Path of the config document (JSON).")
    var file: String

    func run() throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            printError("\(file): cannot read: \(error.localizedDescription)")
            throw ExitCode(2)
        }
        switch TabBarConfig.decode(json: data) {
        case .success(let config):
            print("\(file): valid (\(config.tabs.count) top-level tabs)")
        case .failure(.malformedJSON(let detail)):
            printError("\(file): not JSON: \(detail)")
            throw ExitCode.failure
        case .failure(.invalid(let problems)):
            for problem in problems {
                printError("\(file): \(problem.pointer.isEmpty ? "/" : problem.pointer): \(problem.message)")
            }
            printError("\(file): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
            throw ExitCode.failure
        }
    }

    private func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
