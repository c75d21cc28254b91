/// Why a body is not JSON at all, with the line and column where parsing stopped.
struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    var reason: String
    var line: Int
    var column: Int

    var description: String {
        "\(reason) at line \(line), column \(column)"
    }
}
