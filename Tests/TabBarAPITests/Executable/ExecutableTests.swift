import Foundation
import MicroHTTPTesting
import TabBarAPI
import Testing
import TestSupport

@Suite("the tabconfig executable")
struct ExecutableTests {
    @Test("serves the sample, generates a private admin token, and exits 0 on SIGTERM and SIGINT", arguments: [SIGTERM, SIGINT])
    func serveAndStop(signal: Int32) throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(dataDirectory: directory)
        let response = try httpRequest(port: server.port, "GET", "/v1/clients/ios-phone/tabs")
        #expect(response.status == 200)

        let tokenFile = directory.appendingPathComponent("admin-token")
        let attributes = try FileManager.default.attributesOfItem(atPath: tokenFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count >= 32)
        #expect(server.log.contains(tokenFile.path))
        let admin = try httpRequest(port: server.port, "GET", "/v1/clients", headers: [("Authorization", "Bearer \(token)")])
        #expect(admin.status == 200)

        #expect(server.stop(signal: signal) == 0)
    }

    @Test("TABCONFIG_ADMIN_TOKEN sets the admin token and flags win over the environment")
    func environment() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(
            dataDirectory: directory, environment: ["TABCONFIG_ADMIN_TOKEN": "from-env", "TABCONFIG_PORT": "1"])
        let admin = try httpRequest(port: server.port, "GET", "/v1/clients", headers: [("Authorization", "Bearer from-env")])
        #expect(admin.status == 200)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("admin-token").path))
        #expect(server.stop() == 0)
    }

    @Test("a data directory that cannot be created stops startup with a clear message")
    func unwritableDataDirectory() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        let (status, log) = try ChildProcess.run(
            try ServerProcess.executable("tabconfig"),
            ["serve", "--port", "0", "--data-dir", file.appendingPathComponent("data").path])
        #expect(status != 0)
        #expect(log.contains("cannot start"))
        #expect(log.contains("Not a directory"), "the system's reason: \(log)")

        let (procStatus, procLog) = try run(["serve", "--port", "0", "--data-dir", "/proc/tabconfig-data"])
        #expect(procStatus != 0)
        #expect(procLog.contains("/proc does not accept new directories"), "\(procLog)")
    }

    @Test("a start whose port is in use fails before it creates the data directory, seeds it or writes a token")
    func portInUseChangesNothing() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let running = try ServerProcess(dataDirectory: directory.appendingPathComponent("running"))
        defer { _ = running.stop() }
        let data = directory.appendingPathComponent("second")
        let (status, output) = try run(["serve", "--port", "\(running.port)", "--data-dir", data.path])
        #expect(status != 0)
        #expect(output.contains("cannot start"))
        #expect(output.contains("address already in use"))
        #expect(!FileManager.default.fileExists(atPath: data.path))
    }

    @Test("--version prints the version /healthz answers")
    func version() throws {
        let (status, output) = try run(["--version"])
        #expect(status == 0)
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == BuildInfo.version)
    }

    @Test("serve --help at 80 columns: no line longer, none a lone word wrapped from the line before")
    func helpReadsAt80Columns() throws {
        let (status, help) = try ServerProcess.run(["serve", "--help"], environment: ["COLUMNS": "80"])
        #expect(status == 0)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 60)
        for line in lines {
            #expect(line.count <= 80, "longer than 80 columns: \(line)")
            let heading = line.first?.isUppercase == true && line.hasSuffix(":")
            #expect(line.split(whereSeparator: \.isWhitespace).count != 1 || heading, "a lone word: '\(line)'")
        }
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("also the seconds a request head may take to arrive"))
    }

    @Test("validate prints every problem and exits 1, or exits 0 for a valid document")
    func validate() throws {
        let directory = try TemporaryDirectory().url
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.json")
        try JSONSerialization.data(withJSONObject: ["tabs": [Fixtures.tab("a")], "maxVisibleTabs": 1]).write(to: bad)
        let good = directory.appendingPathComponent("good.json")
        try JSONSerialization.data(withJSONObject: Fixtures.designExample).write(to: good)

        let (badStatus, badOutput) = try run(["validate", bad.path])
        #expect(badStatus == 1)
        #expect(badOutput.contains("/tabs"))
        #expect(badOutput.contains("/maxVisibleTabs"))
        #expect(badOutput.contains("bad.json: 2 problems"))
        let (goodStatus, _) = try run(["validate", good.path])
        #expect(goodStatus == 0)
    }

    @Test("validate - reads standard input; the help names every exit status; an unreadable file exits 2")
    func validateStandardInput() throws {
        let bad = try JSONSerialization.data(withJSONObject: ["tabs": [Fixtures.tab("a")], "maxVisibleTabs": 1])
        let (badStatus, badOutput) = try run(["validate", "-"], input: bad)
        #expect(badStatus == 1)
        #expect(badOutput.contains("<stdin>: /maxVisibleTabs"))
        #expect(badOutput.contains("<stdin>: 2 problems"))
        let good = try JSONSerialization.data(withJSONObject: Fixtures.designExample)
        let (goodStatus, goodOutput) = try run(["validate", "-"], input: good)
        #expect(goodStatus == 0)
        #expect(goodOutput.contains("<stdin>: valid"))

        let (helpStatus, help) = try run(["validate", "--help"])
        #expect(helpStatus == 0)
        for status in ["0   valid", "1   not valid", "2   the file cannot be read", "64  wrong usage"] {
            #expect(help.contains(status), "validate --help names exit status \(status)")
        }
        let (missingStatus, missing) = try run(["validate", "/nonexistent/config.json"])
        #expect(missingStatus == 2)
        #expect(missing.contains("/nonexistent/config.json: cannot read: No such file or directory"))
        let (usageStatus, _) = try run(["validate"])
        #expect(usageStatus == 64)
    }

    private func run(_ arguments: [String], input: Data? = nil) throws -> (Int32, String) {
        try ServerProcess.run(arguments, input: input)
    }
}
