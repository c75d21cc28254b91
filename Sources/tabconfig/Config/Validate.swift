import ArgumentParser
import Foundation
import TabBarModel

/// `tabconfig validate FILE`: checks a config document offline and prints every problem.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a config document; prints every problem and exits 1 if there is any.",
        discussion: """
            Each problem is printed as FILE: POINTER: MESSAGE, then a count.
            Exit status:
              0   valid
              1   not valid, or not JSON
              2   the file cannot be read
              64  wrong usage
            """)

    @Argument(help: "Path of the config document (JSON); - reads standard input.")
    var file: String

    func run() throws {
        let input = InputFile(path: file)
        let data = try input.read()
        switch TabBarConfig.decode(json: data) {
        case .success(let config):
            print("\(input.name): valid (\(config.tabs.count) top-level tabs)")
        case .failure(.malformedJSON(let detail)):
            StandardError.print("\(input.name): not JSON: \(detail)")
            throw ExitCode.failure
        case .failure(.invalid(let problems)):
            for problem in problems {
                StandardError.print("\(input.name): \(problem.line)")
            }
            input.printProblemCount(problems.count)
            throw ExitCode.failure
        }
    }
}
