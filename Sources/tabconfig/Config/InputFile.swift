import ArgumentParser
import Foundation

/// A document named on the command line: a path, or `-` for standard input.
struct InputFile {
    /// The path as given; `-` means standard input.
    var path: String

    /// How messages name it.
    var name: String { path == "-" ? "<stdin>" : path }

    /// The whole content; an unreadable file prints why and exits 2.
    func read() throws -> Data {
        if path == "-" {
            return FileHandle.standardInput.readDataToEndOfFile()
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            StandardError.print("\(name): cannot read: \(Self.systemMessage(of: error) ?? error.localizedDescription)")
            throw ExitCode(2)
        }
    }

    /// Prints the line that ends a list of problems: "FILE: 3 problems".
    func printProblemCount(_ count: Int) {
        StandardError.print("\(name): \(count) problem\(count == 1 ? "" : "s")")
    }

    /// The `errno` text behind a Foundation file error ("No such file or directory"), when there is one.
    private static func systemMessage(of error: any Error) -> String? {
        guard let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error,
            (underlying as NSError).domain == NSPOSIXErrorDomain
        else {
            return nil
        }
        return String(cString: strerror(Int32((underlying as NSError).code)))
    }
}
