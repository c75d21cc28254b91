import Foundation
import Observation
import Testing
import TestSupport

@testable import TabConfigClient

@Suite("TabConfigModel: the observable model, against the real service")
@MainActor
struct TabConfigModelTests {
    @Test("The model moves bundled → fresh on a first launch, cached → fresh on the next, and reports each change")
    func movesFromBundledToCachedToFresh() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        server.stop()
        let configuration = server.configuration(user: .id("watcher"), bundled: ClientFixtures.bundled)

        var sources: [TabBarDelivery.Source?] = []
        for launch in 1...2 {
            let client = TabBarClient(configuration: configuration)
            let model = TabConfigModel(client: client)
            #expect(model.tabBar == nil)
            let changed = Changed()
            withObservationTracking { _ = model.source } onChange: { changed.mark() }
            let running = Task { await model.run() }
            await client.setActive(true)
            #expect(await waitUntil { model.source != nil })
            #expect(await waitUntil { changed.marked })
            sources.append(model.source)
            #expect(model.presenter?.items.map(\.id) == (launch == 1 ? ["home", "search"] : ClientFixtures.ids))

            try server.restart()
            #expect(await waitUntil { model.source == .fresh })
            sources.append(model.source)
            #expect(model.tabBar?.tabs.map(\.id) == ClientFixtures.ids)
            #expect(await waitUntil { model.status.connection == .reachable })
            server.stop()
            await client.shutdown()
            await running.value
        }
        #expect(sources == [.bundled, .fresh, .cached, .fresh])
    }

    @Test("A save through the model is shown applied, its outcome recorded; a pending one's outcome arrives later")
    func saveOutcomes() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let client = server.client(user: .id("arranger"))
        let model = TabConfigModel(client: client)
        let running = Task { await model.run() }
        #expect(await waitUntil { model.source == .fresh })
        let base = TabOrderState(try #require(model.tabBar))
        let moved = TabOrderState(order: ["search", "home", "library", "favorites", "profile", "settings"])
        #expect(try await model.save(TabOrderEdit(base: base, edited: moved)) == .stored(revision: 1))
        #expect(model.lastSaveOutcome == .stored(revision: 1))

        server.stop()
        let again = TabOrderState(order: ["home", "search", "library", "favorites", "profile", "settings"])
        let outcome = try await model.save(TabOrderEdit(base: moved, edited: again))
        guard case .pending = outcome else {
            Issue.record("a save while the service is down is pending, got \(outcome)")
            return
        }
        #expect(await waitUntil { model.hasPendingSave })
        #expect(model.tabBar?.tabs.map(\.id) == again.order)
        try server.restart()
        #expect(await waitUntil { model.lastSaveOutcome == .stored(revision: 2) })
        #expect(await waitUntil { !model.hasPendingSave })
        await client.shutdown()
        await running.value
    }
}

/// Set once an observed property changed.
@MainActor
private final class Changed: Sendable {
    private(set) var marked = false

    nonisolated func mark() {
        Task { @MainActor in self.marked = true }
    }
}
