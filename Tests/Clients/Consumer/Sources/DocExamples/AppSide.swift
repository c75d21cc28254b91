// Hand-written, not generated: the app's own names that the examples of docs/ios-client.md use without declaring
// them, declared here as an app would have them, so that the examples compile as written. The examples themselves
// are in Generated/ (Tests/Clients/Consumer/check.py writes them).
import SwiftUI
import TabConfigClient
import UIKit

// On iOS, TabBarControllerAdapter is part of TabConfigClient (behind `#if canImport(UIKit)`); on Linux the client
// has none, and the examples get the one compiled against the UIKit stand-in. Exported to every file of the module.
@_exported import UIKitAdapterCheck

/// The app's screens: "`Screens.viewController(for:)` is the app's own: it maps a `TabBar.Destination` to a screen".
enum Screens {
    @MainActor
    static func viewController(for destination: TabBar.Destination) -> UIViewController {
        switch destination.type {
        case .viewController, .storyboard, .url:
            return UIViewController()
        default:  // a destination type this app does not know
            return UIViewController()
        }
    }
}

/// The app's SwiftUI screen for a destination.
struct ScreenView: View {
    let destination: TabBar.Destination

    var body: some View {
        Text(destination.name ?? "")
    }
}

/// The app's scene delegate: a `// SceneDelegate` fragment of the doc is an extension of it. It holds the doc's
/// `TabBarCoordinator`, made when the scene connects.
@MainActor
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?
    var coordinator: TabBarCoordinator!
}
