#if canImport(Observation)
import Observation

/// A ``TabBarClient``'s state as an observable model, for a SwiftUI view to read directly: the tab bar to show and
/// its presenter, where it came from, the link's state, whether a save is pending and what became of the last one.
///
/// ```swift
/// struct Tabs: View {
///     @State var model: TabConfigModel
///
///     var body: some View {
///         TabView {
///             ForEach(model.presenter?.barItems ?? []) { item in
///                 ScreenView(destination: item.destination)
///                     .tabItem { Label(item.title, systemImage: item.imageName ?? "square") }
///             }
///         }
///         .task { await model.run() }
///     }
/// }
/// ```
///
/// ``run()`` follows the client until the task it runs in is cancelled or the client shuts down; the properties
/// change on the main actor, so a view redraws when they do.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
@MainActor
@Observable
public final class TabConfigModel {
    /// The client the model follows.
    public let client: TabBarClient
    /// The tab bar to show (with a pending save applied); nil before anything could be served.
    public private(set) var tabBar: TabBar?
    /// Where ``tabBar`` came from: fresh from the service, cached on disk, or the bundled default.
    public private(set) var source: TabBarDelivery.Source?
    /// The link to the service: reachable, refused token, event stream, `Retry-After`.
    public private(set) var status: TabBarClient.Status
    /// Whether a save of the user's waits to be stored by the service.
    public private(set) var hasPendingSave: Bool
    /// What became of the last save: one made through ``save(_:)``, or a pending one the client sent later.
    public private(set) var lastSaveOutcome: SaveOutcome?
    /// The item the user selected, kept across new tab bars.
    public var selectedID: String?

    /// A model of `client`, showing what the client holds now.
    public init(client: TabBarClient) {
        self.client = client
        let current = client.current
        tabBar = current?.tabBar
        source = current?.source
        status = client.status
        hasPendingSave = current?.hasPendingSave ?? false
    }

    /// ``tabBar`` presented, with ``selectedID`` selected when it is still an enabled item.
    public var presenter: TabBarPresenter? {
        tabBar.map { TabBarPresenter($0, selecting: selectedID) }
    }

    /// Starts the client and follows its deliveries, its status and the outcomes of its saves until the calling task
    /// is cancelled or the client shuts down. Run it from a view's `.task`.
    public func run() async {
        await client.start()
        let client = client
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await delivery in client.updates { await self.show(delivery) }
            }
            group.addTask {
                for await status in client.statusUpdates { await self.show(status) }
            }
            group.addTask {
                for await outcome in client.saveOutcomes { await self.show(outcome) }
            }
        }
    }

    /// Saves `edit` (``TabBarClient/save(_:baseRevision:)``) and records what became of it.
    @discardableResult
    public func save(_ edit: TabOrderEdit) async throws -> SaveOutcome {
        let outcome = try await client.save(edit)
        show(outcome)
        return outcome
    }

    private func show(_ delivery: TabBarDelivery) {
        tabBar = delivery.tabBar
        source = delivery.source
        hasPendingSave = delivery.hasPendingSave
    }

    private func show(_ status: TabBarClient.Status) {
        self.status = status
        hasPendingSave = status.hasPendingSave
    }

    private func show(_ outcome: SaveOutcome) {
        lastSaveOutcome = outcome
    }
}
#endif
