import Foundation
import Testing

@testable import TabConfigClient

@Suite("A pending save shown on the tab bar, and the files that keep it")
struct TabBarPendingTests {
    private func bar(_ ids: [String], maxVisibleTabs: Int = 5) -> TabBar {
        TabBar(
            client: "app", version: 3, locale: "en", maxVisibleTabs: maxVisibleTabs, initialTab: ids[0],
            tabs: ids.map { TabBar.Tab(id: $0, title: $0, destination: TabBar.Destination(type: .url, url: $0)) },
            customization: TabBar.Customization(source: .default, revision: 4))
    }

    @Test("Tabs in the state's order, hidden ones left out, placements recomputed for the bar and More")
    func showingPendingOrder() {
        let shown = bar(["a", "b", "c", "d", "e", "f"])
            .showingPendingOrder(TabOrderState(order: ["f", "a", "b", "x", "d", "e"], hidden: ["c"]))
        #expect(shown.tabs.map(\.id) == ["f", "a", "b", "d", "e"])
        #expect(shown.tabs.map(\.placement) == Array(repeating: .bar, count: 5))
        #expect(shown.customization?.hidden == ["c"])
        #expect(shown.customization?.revision == 4)
        let crowded = bar(["a", "b", "c", "d", "e", "f"], maxVisibleTabs: 4)
            .showingPendingOrder(TabOrderState(order: ["b", "a"]))
        #expect(crowded.tabs.map(\.id) == ["b", "a", "c", "d", "e", "f"])
        #expect(crowded.tabs.map(\.placement) == [.bar, .bar, .bar, .more, .more, .more])
    }

    @Test("The pending-save file is written whole, read back, and a damaged one reads as absent")
    func pendingFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pending-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = ClientStorage(directory: directory, client: "app")
        #expect(storage.loadPending() == nil)
        let edit = TabOrderEdit(base: TabOrderState(order: ["a", "b"]), edited: TabOrderState(order: ["b", "a"]))
        let pending = PendingSave(
            owner: "owner", edit: edit, baseRevision: 2, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        try storage.store(pending)
        #expect(storage.loadPending() == pending)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["app.pending-save.json"])
        let data = try Data(contentsOf: storage.pendingFile)
        try data.prefix(data.count / 2).write(to: storage.pendingFile)
        #expect(storage.loadPending() == nil)
        try storage.store(pending)
        #expect(storage.loadPending() == pending)
        try storage.removePending()
        #expect(storage.loadPending() == nil)
        try storage.removePending()
    }
}
