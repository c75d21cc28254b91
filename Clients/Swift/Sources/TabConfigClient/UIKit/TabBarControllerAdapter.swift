// Type-checked on Linux by Tests/Clients/Consumer/check.py, against a stand-in for UIKit and outside this module
// (so it uses only the client's public API); run only in an app.
#if canImport(UIKit)
import UIKit

/// Shows a ``TabBarPresenter`` in a `UITabBarController`, turns the user's "More → Edit" rearrangements into
/// ``TabOrderEdit``s to save, and reports the tabs' opens to `client` for guarded rollouts.
///
/// An open is counted each time a tab becomes the one shown: the selected tab of the first presenter applied (the
/// initial tab at launch), of a later one when the selection moved, and each tab the user selects in the bar (again
/// each time they come back to it, not when they tap the tab already shown). A tab opened from the "More" list or
/// selected by the app's code is not counted: report it with ``TabBarClient/reportOpen(tab:version:)``. A failed
/// open is counted when `makeViewController` throws: the tab is left out of the bar. The opening mark
/// (``TabBarClient/beginOpening(tab:version:)``) is on disk while `makeViewController` makes a tab's view controller
/// and while a tab the user selected is first shown (its `viewDidLoad`, `viewWillAppear`), so that a crash there
/// counts as a failed open at the next launch.
///
/// The adapter becomes the controller's delegate (which UIKit holds weakly): keep the adapter alive as long as the
/// controller. UIKit decides how many items fit in the bar (five on a compact width): a config meant for it should
/// have that `maxVisibleTabs`.
///
/// ```swift
/// let adapter = TabBarControllerAdapter(
///     tabBarController: tabBarController,
///     client: tabConfig,
///     makeViewController: { item in try ScreenFactory.viewController(for: item.destination) },
///     save: { edit in Task { try await tabConfig.save(edit) } }
/// )
/// adapter.apply(TabBarPresenter(tabBar, selecting: adapter.selectedID))
/// ```
@MainActor
public final class TabBarControllerAdapter: NSObject, UITabBarControllerDelegate {
    /// The controller the adapter fills.
    public let tabBarController: UITabBarController
    /// The presenter shown last, with the user's rearrangements since made on it.
    public private(set) var presenter: TabBarPresenter?
    /// The client the tabs' opens are reported to; nil reports nothing.
    private let client: TabBarClient?
    private let makeViewController: @MainActor (TabBarPresenter.Item) throws -> UIViewController
    private let save: @MainActor (TabOrderEdit) -> Void
    /// The view controller of each item shown, by id.
    private var viewControllersByID: [String: UIViewController] = [:]
    /// The tab the user is selecting in the bar, marked as being opened until UIKit has shown it.
    private var selectingID: String?

    /// An adapter filling `tabBarController` with view controllers `makeViewController` makes for items (an item
    /// whose view controller it cannot make, it throws for: the item is left out), handing `save` each rearrangement
    /// the user makes, and reporting the tabs' opens to `client`.
    public init(
        tabBarController: UITabBarController,
        client: TabBarClient? = nil,
        makeViewController: @escaping @MainActor (TabBarPresenter.Item) throws -> UIViewController,
        save: @escaping @MainActor (TabOrderEdit) -> Void
    ) {
        self.tabBarController = tabBarController
        self.client = client
        self.makeViewController = makeViewController
        self.save = save
        super.init()
        tabBarController.delegate = self
    }

    /// The id of the item selected in the controller, to carry the selection over to a new presenter.
    public var selectedID: String? {
        tabBarController.selectedViewController.flatMap(id(of:))
    }

    /// Shows `presenter`: its items' view controllers in order (an id shown before keeps its view controller; one
    /// that cannot be made is left out), their tab bar items, the unlocked ones customizable, and its selection,
    /// counted as an open when it is another tab than the one shown.
    public func apply(_ presenter: TabBarPresenter) {
        let version = presenter.tabBar.version
        let shownBefore = selectedID
        var shown: [String: UIViewController] = [:]
        var marked: String?
        let controllers = presenter.items.compactMap { item -> UIViewController? in
            guard let controller = viewControllersByID[item.id] ?? make(item, version: version, marking: &marked)
            else { return nil }
            let tabBarItem = UITabBarItem(
                title: item.title,
                image: item.imageName.flatMap { UIImage(named: $0) },
                selectedImage: item.selectedImageName.flatMap { UIImage(named: $0) }
            )
            tabBarItem.badgeValue = item.badge
            tabBarItem.isEnabled = item.isEnabled
            controller.tabBarItem = tabBarItem
            shown[item.id] = controller
            return controller
        }
        if let marked { client?.endOpening(tab: marked) }
        viewControllersByID = shown
        self.presenter = presenter
        tabBarController.setViewControllers(controllers, animated: false)
        tabBarController.customizableViewControllers = presenter.items.filter(\.isCustomizable).compactMap {
            shown[$0.id]
        }
        if let id = presenter.selectedID, let selected = shown[id] {
            tabBarController.selectedViewController = selected
            if id != shownBefore { client?.reportOpen(tab: id, version: version) }
        }
    }

    /// The user tapped a tab in the bar: the tab they select, unless it is the one shown, is marked as being opened
    /// until UIKit has shown it (``tabBarController(_:didSelect:)``).
    public func tabBarController(
        _ tabBarController: UITabBarController, shouldSelect viewController: UIViewController
    ) -> Bool {
        selectingID = nil
        if viewController !== tabBarController.selectedViewController, let id = id(of: viewController), let presenter {
            client?.beginOpening(tab: id, version: presenter.tabBar.version)
            selectingID = id
        }
        return true
    }

    /// The user selected a tab in the bar: its open is counted (and its mark cleared), unless it was the one shown.
    public func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {
        guard let id = id(of: viewController), id == selectingID, let presenter else { return }
        selectingID = nil
        client?.reportOpen(tab: id, version: presenter.tabBar.version)
    }

    /// The user ended "More → Edit": hands `save` the edit, if the order changed, and keeps locked items in place.
    public func tabBarController(
        _ tabBarController: UITabBarController, didEndCustomizing viewControllers: [UIViewController], changed: Bool
    ) {
        guard changed, let presenter else { return }
        let ids = viewControllers.compactMap(id(of:))
        guard let edit = presenter.edit(reorderedTo: ids) else { return }
        let updated = TabBarPresenter(presenter.tabBar.applying(edit.edited), selecting: selectedID)
        if updated.items.map(\.id) == ids {
            self.presenter = updated
        } else {
            apply(updated)
        }
        save(edit)
    }

    /// Makes `item`'s view controller with the opening mark of `item` on disk, and leaves it there: the next item's
    /// mark replaces it and the caller clears the last, a write less an item. Nil, counted as a failed open, when
    /// `makeViewController` throws.
    private func make(_ item: TabBarPresenter.Item, version: Int, marking marked: inout String?) -> UIViewController? {
        client?.beginOpening(tab: item.id, version: version)
        marked = item.id
        do {
            return try makeViewController(item)
        } catch {
            client?.reportOpenFailure(tab: item.id, version: version)
            marked = nil
            return nil
        }
    }

    /// The id of the item `controller` shows, if any.
    private func id(of controller: UIViewController) -> String? {
        viewControllersByID.first { $0.value === controller }?.key
    }
}
#endif
