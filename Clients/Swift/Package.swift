// swift-tools-version:6.0
import PackageDescription

// The Swift client of tabconfig, for apps: Foundation only (FoundationNetworking on Linux) and no dependencies, so
// that adding it adds nothing else to an app's Package.resolved. The service's repository builds and tests it as a
// path dependency; `git subtree split --prefix Clients/Swift` is the whole client, publishable on its own.
let package = Package(
    name: "TabConfigClient",
    // Duration, Clock and async URLSession need these releases.
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "TabConfigClient", targets: ["TabConfigClient"]),
    ],
    targets: [
        .target(name: "TabConfigClient", swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .testTarget(
            name: "TabConfigClientTests", dependencies: ["TabConfigClient"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    ]
)
