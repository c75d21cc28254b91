// swift-tools-version:6.0
import PackageDescription

// A reference for Benchmarks/reads.py: tabconfig's own HTTP layer (MicroHTTP) answering every GET of the given
// paths with one prepared response (the given bytes and header fields), with no handler, targeting or metrics on
// top. Its own package, so that the service's build and tests do not carry it.
let package = Package(
    name: "http-floor",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "tabconfig", path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "HTTPFloor",
            dependencies: [
                .product(name: "MicroHTTP", package: "tabconfig"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
