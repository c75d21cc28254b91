// A type-checking stand-in for UIKit on Linux, never run: the part of UIKit's API that the client's
// TabBarControllerAdapter and the UIKit example of docs/ios-client.md use, declared as the iOS SDK declares it to
// Swift (classes, isolation, optionality, labels), with bodies that do nothing. Targets see it as `UIKit`
// (Package.swift passes `-module-alias UIKit=UIKitStub`). When the adapter or the doc starts using more of UIKit,
// add that here, declared as UIKit declares it: the point is that what compiles here compiles against UIKit.
//
// Objective-C optional protocol requirements (`optional func`) do not exist without the Objective-C runtime: here
// they are requirements with an empty default in an extension, so a conforming type may leave them out, as in UIKit.
// The defaults of the ones the adapter implements (`didEndCustomizing`, `shouldSelect`, `didSelect`) are deprecated:
// a conforming type that leaves it out is warned (an error in UIKitAdapterCheck), so that an adapter whose method
// misses the requirement's signature, which UIKit would never call, fails the check instead of compiling.
@_exported import Foundation

// MARK: - Responders, view controllers

@MainActor
open class UIResponder: NSObject {
    public override init() {}
}

@MainActor
open class UIViewController: UIResponder {
    /// UIKit: `null_resettable`, so implicitly unwrapped.
    open var tabBarItem: UITabBarItem!
    open var title: String?

    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}
    public required init?(coder: NSCoder) {}
    public convenience override init() { self.init(nibName: nil, bundle: nil) }
}

@MainActor
public protocol UITabBarControllerDelegate: NSObjectProtocol {
    func tabBarController(
        _ tabBarController: UITabBarController, didEndCustomizing viewControllers: [UIViewController], changed: Bool)
    func tabBarController(_ tabBarController: UITabBarController, shouldSelect viewController: UIViewController) -> Bool
    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController)
}

extension UITabBarControllerDelegate {
    @available(*, deprecated, message: "UIKit stand-in: the conforming type does not implement this method")
    public func tabBarController(
        _ tabBarController: UITabBarController, didEndCustomizing viewControllers: [UIViewController], changed: Bool
    ) {}

    @available(*, deprecated, message: "UIKit stand-in: the conforming type does not implement this method")
    public func tabBarController(
        _ tabBarController: UITabBarController, shouldSelect viewController: UIViewController
    ) -> Bool { true }

    @available(*, deprecated, message: "UIKit stand-in: the conforming type does not implement this method")
    public func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {}
}

@MainActor
open class UITabBarController: UIViewController {
    weak open var delegate: (any UITabBarControllerDelegate)?
    open var viewControllers: [UIViewController]?
    /// UIKit: `unowned(unsafe)` (an `assign` property); a strong reference here, which type-checks the same.
    open var selectedViewController: UIViewController?
    open var selectedIndex: Int = 0
    open var customizableViewControllers: [UIViewController]?

    open func setViewControllers(_ viewControllers: [UIViewController]?, animated: Bool) {}
}

// MARK: - Bar items, images

@MainActor
open class UIBarItem: NSObject {
    open var isEnabled: Bool = true
    open var title: String?
    open var image: UIImage?

    public override init() {}
}

@MainActor
open class UITabBarItem: UIBarItem {
    open var selectedImage: UIImage?
    open var badgeValue: String?

    public override init() {}
    public convenience init(title: String?, image: UIImage?, selectedImage: UIImage?) { self.init() }
    public convenience init(title: String?, image: UIImage?, tag: Int) { self.init() }
}

/// Not main-actor isolated in UIKit: images are made and passed on any thread.
// Safe: a stand-in with no state, only type-checked and never run; UIKit's UIImage is Sendable.
open class UIImage: NSObject, @unchecked Sendable {
    public init?(named name: String) {}
    public init?(systemName name: String) {}
}

// MARK: - Device

@MainActor
open class UIDevice: NSObject {
    open class var current: UIDevice { UIDevice() }
    open var systemVersion: String { "" }
    open var systemName: String { "" }
}

// MARK: - Scenes, windows

@MainActor
open class UIScene: UIResponder {
    @MainActor
    open class ConnectionOptions: NSObject {}
}

@MainActor
open class UIWindowScene: UIScene {}

@MainActor
open class UISceneSession: NSObject {}

@MainActor
public protocol UISceneDelegate: NSObjectProtocol {
    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions)
    func sceneDidDisconnect(_ scene: UIScene)
    func sceneDidBecomeActive(_ scene: UIScene)
    func sceneWillResignActive(_ scene: UIScene)
    func sceneWillEnterForeground(_ scene: UIScene)
    func sceneDidEnterBackground(_ scene: UIScene)
}

extension UISceneDelegate {
    public func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {}
    public func sceneDidDisconnect(_ scene: UIScene) {}
    public func sceneDidBecomeActive(_ scene: UIScene) {}
    public func sceneWillResignActive(_ scene: UIScene) {}
    public func sceneWillEnterForeground(_ scene: UIScene) {}
    public func sceneDidEnterBackground(_ scene: UIScene) {}
}

@MainActor
public protocol UIWindowSceneDelegate: UISceneDelegate {
    var window: UIWindow? { get set }
}

extension UIWindowSceneDelegate {
    public var window: UIWindow? {
        get { nil }
        set {}
    }
}

@MainActor
open class UIView: UIResponder {}

@MainActor
open class UIWindow: UIView {
    open var rootViewController: UIViewController?

    public init(windowScene: UIWindowScene) {}
    open func makeKeyAndVisible() {}
}
