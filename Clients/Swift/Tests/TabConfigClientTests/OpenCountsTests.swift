import Foundation
import Testing

@testable import TabConfigClient

@Suite("OpenCounts and ReportBook: tab opens per version, bounded, on disk")
struct OpenCountsTests {
    @Test("Opens and failures are counted per version and tab; a report taken off leaves what was counted since")
    func countAndRemove() {
        var counts = OpenCounts()
        counts.count(tab: "shop", version: 7, failed: false)
        counts.count(tab: "shop", version: 7, failed: false)
        counts.count(tab: "shop", version: 7, failed: true)
        counts.count(tab: "home", version: 8, failed: false)
        #expect(counts.versions.map(\.version) == [7, 8])
        #expect(counts.versions[0].tabs == ["shop": .init(opened: 2, failed: 1)])

        let sent = counts.versions[0]
        counts.count(tab: "shop", version: 7, failed: false)
        counts.remove(sent)
        #expect(counts.versions[0] == OpenReport(version: 7, tabs: ["shop": .init(opened: 1, failed: 0)]))
        counts.remove(counts.versions[0])
        counts.remove(counts.versions[0])
        #expect(counts.isEmpty)
    }

    @Test("At most 64 tabs a version; a tab stops counting at 1,000 of either kind; overlong ids are not counted")
    func tabAndCountBounds() {
        var counts = OpenCounts()
        for index in 0..<70 { counts.count(tab: "t\(index)", version: 1, failed: false) }
        #expect(counts.versions[0].tabs.count == OpenCounts.maxTabs)
        #expect(counts.versions[0].tabs["t64"] == nil)
        counts.count(tab: "t0", version: 1, failed: true)
        #expect(counts.versions[0].tabs["t0"] == .init(opened: 1, failed: 1))

        for _ in 0..<1_200 { counts.count(tab: "shop", version: 2, failed: true) }
        counts.count(tab: "shop", version: 2, failed: false)
        #expect(counts.versions[1].tabs["shop"] == .init(opened: 0, failed: OpenCounts.maxCount))

        counts.count(tab: String(repeating: "x", count: OpenCounts.maxTabIDLength + 1), version: 3, failed: false)
        counts.count(tab: "", version: 3, failed: false)
        #expect(counts.versions.map(\.version) == [1, 2])
    }

    @Test("At most three versions: a newer one drops the lowest, a version lower than all kept is not counted")
    func versionBound() {
        var counts = OpenCounts()
        for version in [5, 3, 9] { counts.count(tab: "a", version: version, failed: false) }
        #expect(counts.versions.map(\.version) == [3, 5, 9])
        counts.count(tab: "a", version: 2, failed: false)
        #expect(counts.versions.map(\.version) == [3, 5, 9])
        counts.count(tab: "a", version: 6, failed: false)
        #expect(counts.versions.map(\.version) == [5, 6, 9])
    }

    @Test("Counts survive on disk for the next book of the same user, not another's, and go when all are reported")
    func countsOnDisk() {
        let scratch = Scratch()
        let book = ReportBook(storage: scratch.storage())
        let first = book.count(tab: "shop", version: 7, failed: false)
        let second = book.count(tab: "shop", version: 7, failed: true)
        #expect(first && !second)

        let next = ReportBook(storage: scratch.storage())
        let (owner, reports) = next.reports()
        #expect(reports == [OpenReport(version: 7, tabs: ["shop": .init(opened: 1, failed: 1)])])
        #expect(ReportBook(storage: scratch.storage(user: "bob")).reports().reports.isEmpty)

        next.remove(reports[0], owner: "someone else")
        #expect(next.hasCounts)
        next.remove(reports[0], owner: owner)
        #expect(!next.hasCounts)
        #expect(!FileManager.default.fileExists(atPath: scratch.storage().reportsFile.path))
    }

    @Test("An opening mark left by a launch is a failed open at the next, counted once; a cleared one is nothing")
    func leftOverMark() {
        let scratch = Scratch()
        let crashed = ReportBook(storage: scratch.storage())
        crashed.beginOpening(tab: "home", version: 6)
        crashed.endOpening(tab: "home")
        crashed.beginOpening(tab: "shop", version: 7)
        crashed.endOpening(tab: "home")
        #expect(scratch.storage().loadReports()?.opening == .init(tab: "shop", version: 7))

        let relaunched = ReportBook(storage: scratch.storage())
        #expect(relaunched.reports().reports == [OpenReport(version: 7, tabs: ["shop": .init(opened: 0, failed: 1)])])
        #expect(scratch.storage().loadReports()?.opening == nil)
        let again = ReportBook(storage: scratch.storage())
        #expect(again.reports().reports.first?.tabs["shop"]?.failed == 1)
    }

    @Test("Sign-out's removal takes the reports file; a closed book writes nothing more")
    func removedAndClosed() throws {
        let scratch = Scratch()
        let book = ReportBook(storage: scratch.storage())
        book.count(tab: "shop", version: 7, failed: false)
        book.close()
        try scratch.storage().removeAll()
        book.count(tab: "shop", version: 7, failed: false)
        book.beginOpening(tab: "shop", version: 7)
        #expect(!FileManager.default.fileExists(atPath: scratch.storage().reportsFile.path))
    }
}
