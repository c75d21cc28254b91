import Foundation

/// The PostgreSQL cluster tests use: the one `TABCONFIG_TEST_POSTGRES_URL` names (scripts/test.sh starts one), or
/// else one started for this test process by `scripts/postgres.sh` and stopped when the process has exited. Each
/// test takes a database of its own (``createDatabase()``).
public enum TestPostgres {
    /// The URL of the cluster's `postgres` database, or why there is none.
    public static let clusterURL: Result<String, TestPostgresError> = {
        if let url = ProcessInfo.processInfo.environment["TABCONFIG_TEST_POSTGRES_URL"], !url.isEmpty {
            return .success(url)
        }
        return startCluster(in: newClusterDirectory())
    }()

    /// A directory name for a cluster of this process.
    static func newClusterDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "tabconfig-postgres-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        ).path
    }

    /// Starts a cluster in `directory` that stops when this process has exited; the URL of its `postgres` database.
    static func startCluster(in directory: String) -> Result<String, TestPostgresError> {
        let output = script(["start", directory, "--stop-with", String(ProcessInfo.processInfo.processIdentifier)])
        return output.flatMap { text in
            let url = text.split(separator: "\n").last.map(String.init) ?? ""
            return url.hasPrefix("postgres://") ? .success(url) : .failure(TestPostgresError(message: text))
        }
    }

    /// Runs `scripts/postgres.sh` with `arguments`.
    static func script(_ arguments: [String]) -> Result<String, TestPostgresError> {
        run("/bin/bash", [Repository.url("scripts/postgres.sh").path] + arguments)
    }

    /// Creates an empty database and returns its URL, as both the store and psql take it (`?sslmode=disable`: the
    /// test cluster has no TLS).
    public static func createDatabase() throws -> String {
        let cluster = try clusterURL.get()
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        _ = try run(psql, [cluster, "-v", "ON_ERROR_STOP=1", "-qc", "CREATE DATABASE \(name)"]).get()
        return cluster.replacingOccurrences(of: "/postgres", with: "/\(name)") + sslDisabled
    }

    /// Drops a database `createDatabase()` made, closing its connections.
    public static func dropDatabase(_ url: String) {
        guard let cluster = try? clusterURL.get(),
            let name = url.split(separator: "/").last?.split(separator: "?").first
        else { return }
        _ = run(psql, [cluster, "-qc", "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"])
    }

    /// Makes a database `createDatabase()` made unreachable (new connections refused, its sessions terminated, as when
    /// PostgreSQL is away) or reachable again.
    ///
    /// The `ALTER` commits before any session is terminated (a session started before the commit may pass the check),
    /// and sessions are terminated until two checks a moment apart find none.
    public static func setReachable(_ url: String, _ reachable: Bool) throws {
        let cluster = try clusterURL.get()
        guard let name = url.split(separator: "/").last?.split(separator: "?").first else { return }
        let alter = "ALTER DATABASE \(name) ALLOW_CONNECTIONS \(reachable)"
        _ = try run(psql, [cluster, "-v", "ON_ERROR_STOP=1", "-qc", alter]).get()
        guard !reachable else { return }
        let terminate = "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(name)'"
        var quiet = 0
        for _ in 0..<100 where quiet < 2 {
            let terminated = try run(psql, [cluster, "-v", "ON_ERROR_STOP=1", "-Atqc", terminate]).get()
            quiet = terminated.trimmingCharacters(in: .whitespacesAndNewlines) == "0" ? quiet + 1 : 0
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Runs SQL on a database, returning what psql printed (unaligned, tuples only).
    public static func sql(_ url: String, _ statement: String) throws -> String {
        try run(psql, [url, "-v", "ON_ERROR_STOP=1", "-Atqc", statement]).get()
    }

    static let psql = "/usr/lib/postgresql/15/bin/psql"
    static let sslDisabled = "?sslmode=disable"

    /// Runs a program; its standard output, or its output and status as the error.
    private static func run(_ program: String, _ arguments: [String]) -> Result<String, TestPostgresError> {
        let process: ChildProcess
        do {
            process = try ChildProcess(
                executable: URL(fileURLWithPath: program), arguments: arguments, standardOutput: .pipe,
                standardError: .errorPipe)
        } catch {
            return .failure(TestPostgresError(message: "\(program): \(error)"))
        }
        let text = String(decoding: process.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        let problems = String(decoding: process.errorOutput?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .failure(
                TestPostgresError(message: "\(program) exited with \(process.terminationStatus): \(problems)\(text)"))
        }
        return .success(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Why the test cluster or a statement failed.
public struct TestPostgresError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    public init(message: String) {
        self.message = message
    }
}
