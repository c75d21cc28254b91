import Foundation
import MicroHTTPTesting
import Testing
import TabBarStore
import TestSupport

/// `tabconfig store verify` and `tabconfig store repair`, run as the real executable on real data directories.
@Suite("tabconfig store verify and repair")
struct StoreCommandTests {
    private static var document: Data {
        (try? JSONSerialization.data(withJSONObject: Fixtures.designExample, options: [.sortedKeys])) ?? Data()
    }

    /// A data directory with `users` saved customizations (journal only) and `versions` published versions of
    /// `ios-phone`.
    private static func dataDirectory(users: Int = 6, versions: Int = 3) throws -> URL {
        let data = try TemporaryDirectory().url.appendingPathComponent("data")
        let store = try FileStore(directory: data, logger: .silent)
        for index in 0..<users {
            let value = StoredCustomization(order: ["home", "tab-\(index)"], hidden: [])
            _ = try store.saveCustomization(client: "ios-phone", user: "u\(index)", value, expectedRevision: 0)
        }
        for _ in 0..<versions {
            _ = try store.publish(client: "ios-phone", document: document, note: nil, rollbackOf: nil)
        }
        store.close()
        return data
    }

    /// Byte offsets of the journal's records (each starts 12 bytes before its `{"seq":` payload).
    private static func recordOffsets(_ journal: Data) -> [Int] {
        var offsets: [Int] = []
        var searchFrom = journal.startIndex
        while let range = journal.range(of: Data(#"{"seq":"#.utf8), in: searchFrom..<journal.endIndex) {
            offsets.append(range.lowerBound - 12)
            searchFrom = range.upperBound
        }
        return offsets
    }

    /// Runs `tabconfig` to its end: its status, its standard output and its standard error.
    private static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(
            executable: try ServerProcess.executable("tabconfig"), arguments: arguments,
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TABCONFIG_") },
            standardOutput: .pipe, standardError: .errorPipe)
        let stdout = String(decoding: child.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        let stderr = String(decoding: child.errorOutput?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        child.waitUntilExit()
        return (child.terminationStatus, stdout, stderr)
    }

    private static func sideFiles(in directory: URL) throws -> [String] {
        guard let names = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return names.compactMap { $0 as? String }.filter { $0.contains(".damaged-") }.sorted()
    }

    @Test("verify exits 0 on an intact directory and repair says there is nothing to do")
    func cleanDirectory() throws {
        let data = try Self.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data.deletingLastPathComponent()) }
        let verify = try Self.run(["store", "verify", "--data-dir", data.path])
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout.contains("customizations.journal: intact, 6 valid records"))
        #expect(verify.stdout.contains("3 of 3 version files intact"))
        #expect(verify.stdout.contains("clean: 4 files intact"))
        let repair = try Self.run(["store", "repair", "--data-dir", data.path])
        #expect(repair.status == 0, "\(repair)")
        #expect(repair.stdout.contains("nothing to repair"))
        #expect(try Self.sideFiles(in: data).isEmpty)
    }

    @Test("middle damage: verify reports it and exits 1, serve refuses, repair keeps every valid record, serve starts")
    func middleDamage() throws {
        let data = try Self.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data.deletingLastPathComponent()) }
        let journal = data.appendingPathComponent("customizations.journal")
        var bytes = try Data(contentsOf: journal)
        let offsets = Self.recordOffsets(bytes)
        try #require(offsets.count == 6)
        bytes[offsets[2] + 20] ^= 0x44
        bytes.append(contentsOf: [0x13, 0x00, 0x00, 0x00, 0xAB])
        try bytes.write(to: journal)
        let version3 = data.appendingPathComponent("clients/ios-phone/versions/000003.json")
        try Data("{\"version\":3,".utf8).write(to: version3)

        let verify = try Self.run(["store", "verify", "--data-dir", data.path])
        #expect(verify.status == 1, "\(verify)")
        #expect(verify.stdout.contains("customizations.journal: DAMAGED, 5 valid records"))
        #expect(verify.stdout.contains("byte offset \(offsets[2]), \(offsets[3] - offsets[2]) bytes: payload checksum mismatch; 3 valid records follow (corruption in the middle)"))
        #expect(verify.stdout.contains("byte offset \(bytes.count - 5), 5 bytes: incomplete record header"))
        #expect(verify.stdout.contains("000003.json: DAMAGED"))
        #expect(verify.stdout.contains("serve refuses to start until repaired"))
        #expect(try Data(contentsOf: journal) == bytes, "verify changes nothing")
        #expect(try Self.sideFiles(in: data).isEmpty)

        let serve = try Self.run(["serve", "--port", "0", "--data-dir", data.path])
        #expect(serve.status != 0)
        #expect(serve.stderr.contains("corrupt record at byte offset \(offsets[2]) (payload checksum mismatch); 3 valid records follow it"))
        #expect(serve.stderr.contains("tabconfig store repair --data-dir \(data.path)"))
        #expect(try Data(contentsOf: journal) == bytes, "a refused start leaves the journal as it is")

        let repair = try Self.run(["store", "repair", "--data-dir", data.path])
        #expect(repair.status == 0, "\(repair)")
        #expect(repair.stdout.contains("kept 5 valid records"))
        let sides = try Self.sideFiles(in: data)
        #expect(sides.count == 3, "two journal ranges and one version file: \(sides)")
        #expect(sides.contains { $0.hasPrefix("customizations.journal.damaged-\(offsets[2])-") })
        #expect(sides.contains { $0.hasPrefix("clients/ios-phone/versions/000003.json.damaged-0-") })

        let again = try Self.run(["store", "verify", "--data-dir", data.path])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("side file of an earlier recovery"))

        let store = try FileStore(directory: data, logger: .silent)
        #expect(store.customizationCount == 5)
        #expect(store.customization(client: "ios-phone", user: "u2") == nil)
        #expect(store.customization(client: "ios-phone", user: "u5") != nil)
        #expect(store.versionNumbers(client: "ios-phone") == [1, 2])
        #expect(try store.publish(client: "ios-phone", document: Self.document, note: nil, rollbackOf: nil).version == 4)
        store.close()

        let server = try ServerProcess(dataDirectory: data)
        let response = try httpRequest(port: server.port, "GET", "/v1/clients/ios-phone/tabs")
        #expect(response.status == 200)
        #expect(server.stop() == 0)
    }

    @Test("repair refuses with exit 2 while a server holds the data directory, and changes nothing")
    func refusedWhileServing() throws {
        let data = try Self.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data.deletingLastPathComponent()) }
        let journal = data.appendingPathComponent("customizations.journal")
        let server = try ServerProcess(dataDirectory: data)
        let before = try Data(contentsOf: journal)
        let repair = try Self.run(["store", "repair", "--data-dir", data.path])
        #expect(repair.status == 2, "\(repair)")
        #expect(repair.stderr.contains("refused"))
        #expect(repair.stderr.contains("in use"))
        let verify = try Self.run(["store", "verify", "--data-dir", data.path])
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout.contains("a server holds"))
        #expect(try Data(contentsOf: journal) == before)
        #expect(server.stop() == 0)
    }

    @Test("a torn journal tail: verify says serve recovers by itself; serve moves it to a side file and starts")
    func tornTail() throws {
        let data = try Self.dataDirectory(versions: 1)
        defer { try? FileManager.default.removeItem(at: data.deletingLastPathComponent()) }
        let journal = data.appendingPathComponent("customizations.journal")
        var bytes = try Data(contentsOf: journal)
        let last = try #require(Self.recordOffsets(bytes).last)
        bytes[last + 2] ^= 0x7F
        bytes.append(Data(repeating: 0xEE, count: 40))
        try bytes.write(to: journal)
        let verify = try Self.run(["store", "verify", "--data-dir", data.path])
        #expect(verify.status == 1, "\(verify)")
        #expect(verify.stdout.contains("length checksum mismatch; nothing valid follows (torn tail)"))
        #expect(verify.stdout.contains("serve recovers by itself"))
        let server = try ServerProcess(dataDirectory: data)
        #expect(server.stop() == 0)
        #expect(server.log.contains("truncating the torn tail of \(journal.path) at byte offset \(last)"))
        #expect(try Data(contentsOf: journal) == bytes.prefix(last))
        #expect(try Self.sideFiles(in: data).count == 1)
    }

    @Test("verify exits 2 when the directory does not exist")
    func missingDirectory() throws {
        let missing = try TemporaryDirectory().url.appendingPathComponent("nope")
        defer { try? FileManager.default.removeItem(at: missing.deletingLastPathComponent()) }
        let verify = try Self.run(["store", "verify", "--data-dir", missing.path])
        #expect(verify.status == 2, "\(verify)")
        #expect(verify.stderr.contains("not a data directory"))
        let repair = try Self.run(["store", "repair", "--data-dir", missing.path])
        #expect(repair.status == 1, "\(repair)")
        #expect(!FileManager.default.fileExists(atPath: missing.path), "repair creates nothing")
    }
}
