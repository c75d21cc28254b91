import Foundation
import Testing
import TestSupport
@testable import TabBarStore

@Suite("FileStore files and failures")
struct FileStoreTests {
    private static let document = Data(#"{"tabs":[{"id":"home","title":"Home/Start"}],"more":{"max":5}}"#.utf8)

    @Test("a version file embeds the document as JSON with its metadata")
    func versionFileLayout() throws {
        let directory = try TemporaryDirectory("layout")
        defer { directory.remove() }
        let store = try FileStore(directory: directory.child("data"), logger: .silent)
        defer { store.close() }
        let published = try store.publish(client: "ios", document: Self.document, note: "launch", rollbackOf: nil)
        let path = directory.path("data", "clients", "ios", "versions", "000001.json")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        #expect(object["note"] as? String == "launch")
        #expect(object["rollbackOf"] is NSNull)
        let publishedAt = try #require(object["publishedAt"] as? String)
        #expect(publishedAt.contains(".") && publishedAt.hasSuffix("Z"))
        let config = try #require(object["config"] as? [String: Any])
        #expect((config["more"] as? [String: Any])?["max"] as? Int == 5)
        #expect(published.document == Self.document)
        #expect(store.liveVersion(client: "ios")?.document == Self.document)
    }

    @Test("publish rejects a document that is not JSON and a client id that is not a safe name")
    func publishValidation() throws {
        let directory = try TemporaryDirectory("validation")
        defer { directory.remove() }
        let store = try FileStore(directory: directory.child("data"), logger: .silent)
        defer { store.close() }
        #expect(throws: StoreError.invalidDocument) {
            try store.publish(client: "ios", document: Data("{not json".utf8), note: nil, rollbackOf: nil)
        }
        for client in ["", "../etc", ".hidden", "UPPER", "a/b", String(repeating: "a", count: 64)] {
            #expect(throws: StoreError.invalidClientID) {
                try store.publish(client: client, document: Self.document, note: nil, rollbackOf: nil)
            }
        }
        #expect(try store.deleteClient("../etc") == false)
        #expect(store.clientIDs() == [])
    }

    @Test("a customization too large for one journal record is refused")
    func recordTooLarge() throws {
        let directory = try TemporaryDirectory("large")
        defer { directory.remove() }
        let store = try FileStore(directory: directory.child("data"), logger: .silent)
        defer { store.close() }
        let huge = StoredCustomization(order: (0..<120_000).map { "tab-\($0)" }, hidden: [])
        #expect(throws: StoreError.recordTooLarge) {
            try store.saveCustomization(client: "ios", user: "u", huge, expectedRevision: nil)
        }
        #expect(store.customization(client: "ios", user: "u") == nil)
        let small = StoredCustomization(order: [], hidden: [])
        #expect(try store.saveCustomization(client: "ios", user: "u", small, expectedRevision: 0).revision == 1)
    }

    @Test("leftover temp files and half-deleted clients are removed at open")
    func leftoversRemoved() throws {
        let directory = try TemporaryDirectory("leftovers")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        _ = try store.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil)
        store.close()
        let manager = FileManager.default
        let leftovers = [
            directory.path("data", "customizations.journal.1f2e.tmp"),
            directory.path("data", "customizations.snapshot.99.tmp"),
            directory.path("data", "clients", "ios", "versions", "000002.json.abc.tmp"),
        ]
        for path in leftovers {
            #expect(manager.createFile(atPath: path, contents: Data("partial".utf8)))
        }
        let deleted = directory.path("data", "clients", ".deleted-old-1234", "versions")
        try manager.createDirectory(atPath: deleted, withIntermediateDirectories: true)
        #expect(manager.createFile(atPath: deleted + "/000001.json", contents: Self.document))

        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        for path in leftovers {
            #expect(!manager.fileExists(atPath: path), "\(path) removed")
        }
        #expect(!manager.fileExists(atPath: directory.path("data", "clients", ".deleted-old-1234")))
        #expect(reopened.clientIDs() == ["ios"])
        #expect(reopened.versionNumbers(client: "ios") == [1])
        #expect(try reopened.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil).version == 2)
    }

    @Test(
        "a damaged newest version file is moved aside, the previous version serves and its number is not reused",
        arguments: ["garbage", "{\"version\":1}"]
    )
    func damagedNewestVersionFile(contents: String) throws {
        let directory = try TemporaryDirectory("garbage")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        _ = try store.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil)
        store.close()
        let versions = directory.path("data", "clients", "ios", "versions")
        let path = (versions as NSString).appendingPathComponent("000002.json")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(contents.utf8)))
        let capture = LogCapture()
        let reopened = try FileStore(directory: data, logger: capture.logger)
        #expect(reopened.versionNumbers(client: "ios") == [1])
        #expect(capture.warnings.contains { $0.message.contains(path) && $0.metadata["sideFile"] != nil })
        let sideFiles = try FileManager.default.contentsOfDirectory(atPath: versions).filter { $0.contains(".damaged-") }
        #expect(sideFiles.count == 1)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try reopened.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil).version == 3)
        reopened.close()

        let again = try FileStore(directory: data, logger: .silent)
        defer { again.close() }
        #expect(again.versionNumbers(client: "ios") == [1, 3])
        #expect(try again.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil).version == 4)
    }

    @Test("a damaged version file followed by a valid later version stops open, naming the file and the command")
    func damagedEarlierVersionFile() throws {
        let directory = try TemporaryDirectory("garbage-middle")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        _ = try store.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil)
        _ = try store.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil)
        store.close()
        let path = directory.path("data", "clients", "ios", "versions", "000001.json")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("garbage".utf8)))
        let error = try #require(throws: StoreOpenError.self) {
            try FileStore(directory: data, logger: .silent)
        }
        #expect(error.description.contains(path))
        #expect(error.description.contains("1 valid later version of ios follow"))
        #expect(error.description.contains("tabconfig store repair --data-dir \(data.standardizedFileURL.path)"))
        #expect(FileManager.default.fileExists(atPath: path), "nothing is moved while refusing")
    }

    @Test("a client whose only version file is damaged continues numbering past it, also after its deletion")
    func onlyVersionDamaged() throws {
        let directory = try TemporaryDirectory("garbage-only")
        defer { directory.remove() }
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        _ = try store.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil)
        store.close()
        let path = directory.path("data", "clients", "ios", "versions", "000001.json")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("{".utf8)))
        let reopened = try FileStore(directory: data, logger: .silent)
        #expect(reopened.liveVersion(client: "ios") == nil)
        #expect(try reopened.deleteClient("ios") == false)
        #expect(try reopened.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil).version == 2)
        reopened.close()
    }

    @Test("a data directory that cannot be created is a clear open error")
    func unwritableDirectory() throws {
        let directory = try TemporaryDirectory("unwritable")
        defer { directory.remove() }
        let file = directory.path("not-a-directory")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let error = try #require(throws: StoreOpenError.self) {
            try FileStore(directory: URL(fileURLWithPath: file).appendingPathComponent("data"), logger: .silent)
        }
        #expect(error.description.contains(file))
        let plain = try #require(throws: StoreOpenError.self) {
            try FileStore(directory: URL(fileURLWithPath: file), logger: .silent)
        }
        #expect(plain.description.contains(file))
    }

    @Test("a second store on the same directory is refused until the first closes")
    func exclusiveDirectory() throws {
        let directory = try TemporaryDirectory("lock")
        defer { directory.remove() }
        let data = directory.child("data")
        let first = try FileStore(directory: data, logger: .silent)
        let error = try #require(throws: StoreOpenError.self) {
            try FileStore(directory: data, logger: .silent)
        }
        #expect(error.description.contains("in use"))
        first.close()
        let second = try FileStore(directory: data, logger: .silent)
        second.close()
    }

    @Test("after a failed fsync the store refuses every write for good and keeps serving reads")
    func failsClosed() throws {
        let directory = try TemporaryDirectory("fail-closed")
        defer { directory.remove() }
        let capture = LogCapture()
        let (store, faults) = try FileStore.withFaults(in: directory, logger: capture.logger)
        defer { store.close() }
        let value = StoredCustomization(order: ["a"], hidden: [])
        let saved = try store.saveCustomization(client: "ios", user: "u", value, expectedRevision: nil)
        let version = try store.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil)

        faults.failSyncs = true
        #expect(throws: StoreError.unavailable) {
            try store.saveCustomization(client: "ios", user: "u", value, expectedRevision: nil)
        }
        let reason = try #require(store.unavailableReason)
        #expect(reason.contains("fsync"))
        #expect(capture.all.contains { $0.level == .error })

        faults.failSyncs = false
        #expect(throws: StoreError.unavailable) {
            try store.saveCustomization(client: "ios", user: "v", value, expectedRevision: nil)
        }
        #expect(throws: StoreError.unavailable) { try store.deleteCustomization(client: "ios", user: "u") }
        #expect(throws: StoreError.unavailable) {
            try store.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil)
        }
        #expect(throws: StoreError.unavailable) { try store.deleteClient("ios") }
        #expect(throws: StoreError.unavailable) { try store.compact() }
        #expect(store.customization(client: "ios", user: "u") == saved)
        #expect(store.liveVersion(client: "ios") == version)
        #expect(store.unavailableReason == reason)
    }

    @Test("a failed fsync while publishing also makes the store refuse writes")
    func publishFailsClosed() throws {
        let directory = try TemporaryDirectory("fail-publish")
        defer { directory.remove() }
        let (store, faults) = try FileStore.withFaults(in: directory)
        defer { store.close() }
        faults.failSyncs = true
        #expect(throws: StoreError.unavailable) {
            try store.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil)
        }
        #expect(store.liveVersion(client: "ios") == nil)
        faults.failSyncs = false
        #expect(store.unavailableReason != nil)
        #expect(throws: StoreError.unavailable) {
            try store.saveCustomization(client: "ios", user: "u", .init(order: [], hidden: []), expectedRevision: nil)
        }
    }
}
