// swift-tools-version:6.0
import PackageDescription

// What a Swift team gets from Apple's swift-openapi-generator on tabconfig's openapi.yaml, checked against the
// running server (scripts/test.sh). A package of its own, so that the generator's dependencies (OpenAPIKit, Yams,
// swift-algorithms, swift-argument-parser) stay out of tabconfig's graph. The versions are the ones tried in
// issue 18: generator 1.14.3, runtime 1.13.4, URLSession transport 1.4.0.
let package = Package(
    name: "OpenAPIGenerated",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
    ],
    targets: [
        // tabconfig's own client library, compiled here from its sources (Sources/TabConfigClient is a symlink) so
        // that the check can hold its hand-written wire types against the generated ones without depending on the
        // root package, whose identity would be the checkout's directory name.
        .target(name: "TabConfigClient", swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .executableTarget(
            name: "openapi-client-check",
            dependencies: [
                "TabConfigClient",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        )
    ]
)
