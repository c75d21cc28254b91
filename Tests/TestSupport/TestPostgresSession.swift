import Foundation

/// An open psql session on a test database, fed statements one at a time: to hold a transaction's locks while a test
/// looks at what waits on them.
public final class TestPostgresSession {
    private let process: ChildProcess

    /// Connects to the database at `url`.
    public init(url: String) throws {
        process = try ChildProcess(
            executable: URL(fileURLWithPath: TestPostgres.psql), arguments: [url, "-v", "ON_ERROR_STOP=1", "-Atq"],
            keepsInputOpen: true, standardOutput: .null, standardError: .null)
    }

    /// Sends `statement` (with its terminating `;`); psql runs it once it arrives, after those sent before.
    public func send(_ statement: String) throws {
        try process.input?.write(contentsOf: Data((statement + "\n").utf8))
    }

    /// Ends the session (an open transaction is rolled back) and waits for psql to exit.
    public func close() {
        try? process.input?.close()
        process.waitUntilExit()
    }
}
