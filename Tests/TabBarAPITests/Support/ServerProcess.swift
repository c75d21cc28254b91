import Foundation
import TestSupport

/// The real `tabconfig` executable, started as a child process (``ChildProcess``).
final class ServerProcess {
    let process: ChildProcess
    private let output = OutputBuffer()
    /// The bound port, once ``waitUntilListening()`` returned (0 before).
    private(set) var port = 0

    /// Starts `tabconfig serve --port 0` on `dataDirectory` and waits for its "listening on" line.
    convenience init(dataDirectory: URL, arguments: [String] = [], environment: [String: String] = [:]) throws {
        try self.init(launching: dataDirectory, arguments: arguments, environment: environment)
        try waitUntilListening()
    }

    /// Starts `count` servers, each on its own data directory, all launched before any is waited for (replicas
    /// starting together).
    static func startTogether(
        _ dataDirectories: [URL], arguments: [String] = [], environment: [String: String] = [:]
    ) throws -> [ServerProcess] {
        let servers = try dataDirectories.map {
            try ServerProcess(launching: $0, arguments: arguments, environment: environment)
        }
        for server in servers { try server.waitUntilListening() }
        return servers
    }

    /// Launches `tabconfig serve --port 0` on `dataDirectory` without waiting for it to listen.
    init(launching dataDirectory: URL, arguments: [String], environment: [String: String]) throws {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TABCONFIG_") }
        env.merge(environment) { $1 }
        process = try ChildProcess(
            executable: try Self.executable("tabconfig"),
            arguments: ["serve", "--port", "0", "--data-dir", dataDirectory.path] + arguments, environment: env,
            standardOutput: .null, standardError: .pipe)
        let output = self.output
        process.output?.readabilityHandler = { handle in
            let chunk = handle.availableData
            if chunk.isEmpty {
                output.finish()
            } else {
                output.append(chunk)
            }
        }
    }

    /// Waits up to 30 s for the "listening on" line and reads the port from it.
    func waitUntilListening() throws {
        let deadline = Date().addingTimeInterval(30)
        var found: Int?
        while found == nil, Date() < deadline, process.isRunning {
            found = Self.port(in: output.text)
            if found == nil { Thread.sleep(forTimeInterval: 0.02) }
        }
        guard let found else {
            process.terminate()
            throw TestFailure("tabconfig did not report a port; stderr: \(output.text)")
        }
        port = found
    }

    var log: String { output.text }

    /// Sends `signal` and waits for the exit status, and for the pipe to have been read to its end (up to 10 s), so
    /// ``log`` then holds all the child wrote.
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        output.waitForEnd(timeout: 10)
        return process.terminationStatus
    }

    static func port(in log: String) -> Int? {
        guard let range = log.range(of: "listening on http://127.0.0.1:") else { return nil }
        let digits = log[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }

    /// Runs `tabconfig` with `arguments` (and `input` on its standard input) to the end: its exit status and its
    /// standard output and error together. With `environment`, the child gets it instead of this process's
    /// TABCONFIG_ variables.
    static func run(
        _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil
    ) throws -> (Int32, String) {
        let childEnvironment = environment.map { environment in
            ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TABCONFIG_") }.merging(environment) { $1 }
        }
        let result = try ChildProcess.run(
            try executable("tabconfig"), arguments, environment: childEnvironment, input: input)
        return (result.status, result.output)
    }

    /// A product built next to the test binary.
    static func executable(_ name: String) throws -> URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw TestFailure("cannot find the \(name) executable near \(testBinary.path)")
    }
}

/// Collects a child's output from the pipe's handler thread.
final class OutputBuffer: @unchecked Sendable {
    // Safe: every access to `data` and `ended` holds `lock`.
    private let lock = NSLock()
    private var data = Data()
    private var ended = false

    /// Marks the end of the output: the pipe was read to its end. (The handler is left in place: clearing it from
    /// within itself cancels its dispatch source from its own handler.)
    func finish() {
        lock.lock()
        ended = true
        lock.unlock()
    }

    /// Waits until ``finish()`` was called, or `timeout` seconds.
    func waitForEnd(timeout: Double) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            lock.lock()
            let done = ended
            lock.unlock()
            if done { return }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    func append(_ chunk: Data) {
        lock.lock()
        data.append(chunk)
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
