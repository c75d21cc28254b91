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
        // tabconfig's own client, so that the check holds its hand-written wire types against the generated ones.
        .package(path: "../../../Clients/Swift"),
    ],
    targets: [
        .executableTarget(
            name: "openapi-client-check",
            dependencies: [
                .product(name: "TabConfigClient", package: "Swift"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        )
    ]
)
