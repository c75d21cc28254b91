// Type-checked on Linux by Tests/Clients/Consumer/check.py, against a stand-in for UIKit and outside this module
// (so it uses only the client's public API); run only in an app.
#if canImport(UIKit)
import UIKit

/// Shows a ``TabBarPresenter`` in a `UITabBarController` and turns the user's "More → Edit" rearrangements into
/// ``TabOrderEdit``s to save.
///
/// The adapter becomes the controller's delegate (which UIKit holds weakly): keep the adapter alive as long as the
/// controller. UIKit decides how many items fit in the bar (five on a compact width): a config meant for it should
/// have that `maxVisibleTabs`.
///
/// ```swift
/// let adapter = TabBarControllerAdapter(
///     tabBarController: tabBarController,
///     makeViewController: { item in ScreenFactory.viewController(for: item.destination) },
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
    private let makeViewController: @MainActor (TabBarPresenter.Item) -> UIViewController
    private let save: @MainActor (TabOrderEdit) -> Void
    /// The view controller of each item shown, by id.
    private var viewControllersByID: [String: UIViewController] = [:]

    /// An adapter filling `tabBarController` with view controllers `makeViewController` makes for items, and
    /// handing `save` each rearrangement the user makes.
    public init(
        tabBarController: UITabBarController,
        makeViewController: @escaping @MainActor (TabBarPresenter.Item) -> UIViewController,
        save: @escaping @MainActor (TabOrderEdit) -> Void
    ) {
        self.tabBarController = tabBarController
        self.makeViewController = makeViewController
        self.save = save
        super.init()
        tabBarController.delegate = self
    }

    /// The id of the item selected in the controller, to carry the selection over to a new presenter.
    public var selectedID: String? {
        guard let selected = tabBarController.selectedViewController else { return nil }
        return viewControllersByID.first { $0.value === selected }?.key
    }

    /// Shows `presenter`: its items' view controllers in order (an id shown before keeps its view controller), their
    /// tab bar items, the unlocked ones customizable, and its selection.
    public func apply(_ presenter: TabBarPresenter) {
        var shown: [String: UIViewController] = [:]
        let controllers = presenter.items.map { item in
            let controller = viewControllersByID[item.id] ?? makeViewController(item)
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
        viewControllersByID = shown
        self.presenter = presenter
        tabBarController.setViewControllers(controllers, animated: false)
        tabBarController.customizableViewControllers = presenter.items.filter(\.isCustomizable).compactMap {
            shown[$0.id]
        }
        if let selected = presenter.selectedID.flatMap({ shown[$0] }) {
            tabBarController.selectedViewController = selected
        }
    }

    /// The user ended "More → Edit": hands `save` the edit, if the order changed, and keeps locked items in place.
    public func tabBarController(
        _ tabBarController: UITabBarController, didEndCustomizing viewControllers: [UIViewController], changed: Bool
    ) {
        guard changed, let presenter else { return }
        let ids = viewControllers.compactMap { controller in
            viewControllersByID.first { $0.value === controller }?.key
        }
        guard let edit = presenter.edit(reorderedTo: ids) else { return }
        let updated = TabBarPresenter(presenter.tabBar.applying(edit.edited), selecting: selectedID)
        if updated.items.map(\.id) == ids {
            self.presenter = updated
        } else {
            apply(updated)
        }
        save(edit)
    }
}
#endif
