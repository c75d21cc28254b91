import Foundation
import Testing
import TestSupport
@testable import TabBarStore

/// Version files judged per client's history: damage with no valid later version is moved aside at open (its number
/// stays used); damage with a valid later version refuses; repair moves every damaged file aside.
@Suite("version file damage")
struct VersionDamageTests {
    private static let document = Data(#"{"tabs":[]}"#.utf8)

    private static func published(_ count: Int, in directory: TemporaryDirectory) throws -> URL {
        let data = directory.child("data")
        let store = try FileStore(directory: data, logger: .silent)
        for _ in 0..<count {
            _ = try store.publish(client: "ios", document: document, note: nil, rollbackOf: nil)
        }
        store.close()
        return data
    }

    private static func versionPath(_ data: URL, _ number: Int) -> String {
        data.appendingPathComponent("clients/ios/versions/\(VersionFile.fileName(number))").path
    }

    @Test("the two newest files damaged: both are moved aside at open and numbering continues past both")
    func twoNewestDamaged() throws {
        let directory = try TemporaryDirectory("versions-two")
        defer { directory.remove() }
        let data = try Self.published(4, in: directory)
        try Data("{\"version\":3".utf8).write(to: URL(fileURLWithPath: Self.versionPath(data, 3)))
        try Data().write(to: URL(fileURLWithPath: Self.versionPath(data, 4)))
        let capture = LogCapture()
        let store = try FileStore(directory: data, logger: capture.logger)
        #expect(store.versionNumbers(client: "ios") == [1, 2])
        #expect(capture.warnings.filter { $0.metadata["sideFile"] != nil }.count == 2)
        #expect(try store.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil).version == 5)
        store.close()
    }

    @Test("damage with a valid later version refuses; repair moves it aside and keeps every valid version")
    func middleRepaired() throws {
        let directory = try TemporaryDirectory("versions-middle")
        defer { directory.remove() }
        let data = try Self.published(3, in: directory)
        let damaged = Self.versionPath(data, 2)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: damaged))
        let error = try #require(throws: StoreOpenError.self) { try FileStore(directory: data, logger: .silent) }
        #expect(error.description.contains(damaged))
        #expect(error.description.contains("1 valid later version of ios follow it"))

        let verify = try StoreRecovery.verify(directory: data)
        #expect(verify.damagedFiles.map(\.path) == [damaged])
        #expect(verify.damagedFiles.first?.damage.first?.validRecordsAfter == 1)
        let report = try StoreRecovery.repair(directory: data, logger: .silent)
        let side = try #require(report.damagedFiles.first?.sideFiles.first)
        #expect(side.hasPrefix(damaged + ".damaged-0-"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: side)) == Data("not json".utf8))
        let store = try FileStore(directory: data, logger: .silent)
        defer { store.close() }
        #expect(store.versionNumbers(client: "ios") == [1, 3])
        #expect(try store.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil).version == 4)
    }

    @Test("side files survive reopening and are neither versions nor leftovers")
    func sideFilesStay() throws {
        let directory = try TemporaryDirectory("versions-side")
        defer { directory.remove() }
        let data = try Self.published(2, in: directory)
        let journalSide = data.appendingPathComponent("customizations.journal.damaged-8-20260101T000000Z").path
        let versionSide = Self.versionPath(data, 7) + ".damaged-0-20260101T000000Z"
        try Data("junk".utf8).write(to: URL(fileURLWithPath: journalSide))
        try Data("junk".utf8).write(to: URL(fileURLWithPath: versionSide))
        let capture = LogCapture()
        let store = try FileStore(directory: data, logger: capture.logger)
        #expect(store.versionNumbers(client: "ios") == [1, 2])
        #expect(try store.publish(client: "ios", document: Self.document, note: nil, rollbackOf: nil).version == 8)
        store.close()
        #expect(capture.warnings.isEmpty, "\(capture.warnings.map(\.message))")
        #expect(FileManager.default.fileExists(atPath: journalSide))
        #expect(FileManager.default.fileExists(atPath: versionSide))
        let reopened = try FileStore(directory: data, logger: .silent)
        defer { reopened.close() }
        #expect(reopened.versionNumbers(client: "ios") == [1, 2, 8])
        #expect(FileManager.default.fileExists(atPath: journalSide))
    }
}
