// swift-tools-version:6.0
import PackageDescription

// An app's view of tabconfig's Swift client, built by Tests/Clients/Consumer/check.py: a package that depends on
// the client by path and on nothing else, so that its Package.resolved shows what adding the client adds to an app
// (no package at all) and its build directory shows which modules come with it (the client's only: none of the
// server's). It also type-checks, on Linux, the client's UIKit code and the Swift of docs/ios-client.md against
// stand-ins for UIKit and SwiftUI.
//
// The stand-ins are the modules `UIKitStub` and `SwiftUIStub`, which the targets checked against them see as `UIKit`
// and `SwiftUI` (`-module-alias`). They are not named UIKit and SwiftUI themselves: every module of a build lands in
// one directory that every target searches, so a module named UIKit would turn `#if canImport(UIKit)` on inside the
// client's own target, and which of the two got built first would decide whether the client compiled its adapter.
//
// DocExamples/Generated/ is written by check.py (git-ignored): run check.py, not `swift build`, after a doc
// changes; DocExamples/AppSide.swift (hand-written) declares the app's own names the examples use.
let uiKit: [SwiftSetting] = [.unsafeFlags(["-module-alias", "UIKit=UIKitStub"])]
let swiftUI: [SwiftSetting] = [.unsafeFlags(["-module-alias", "SwiftUI=SwiftUIStub"])]
// The client's own settings, so that its code compiled here is compiled as it is there.
let client: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Consumer",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        .package(path: "../../../Clients/Swift"),
    ],
    targets: [
        // An app that uses the client and nothing else: the plain dependency builds and links.
        .executableTarget(
            name: "Consumer", dependencies: [.product(name: "TabConfigClient", package: "Swift")]),
        // Type-checking stand-ins, never run.
        .target(name: "UIKitStub"),
        .target(name: "SwiftUIStub"),
        // Clients/Swift/Sources/TabConfigClient/UIKit/TabBarControllerAdapter.swift (a symlink) compiled against the
        // UIKit stand-in, outside the client's module: it may use only the client's public API.
        .target(
            name: "UIKitAdapterCheck",
            dependencies: ["UIKitStub", .product(name: "TabConfigClient", package: "Swift")],
            swiftSettings: client + uiKit + [.unsafeFlags(["-warnings-as-errors"])]),
        // The Swift blocks of README.md and docs/ios-client.md, as Tests/Clients/Consumer/check.py extracts them.
        .target(
            name: "DocExamples",
            dependencies: [
                "UIKitStub", "SwiftUIStub", "UIKitAdapterCheck",
                .product(name: "TabConfigClient", package: "Swift"),
            ],
            swiftSettings: uiKit + swiftUI),
    ]
)
