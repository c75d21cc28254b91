// swift-tools-version:6.0
import PackageDescription

// A reference for Benchmarks/reads.py: a minimal Hummingbird 2 app serving fixed bytes, what a Swift team would
// otherwise pick. Its own package, so that the service never depends on Hummingbird.
let package = Package(
    name: "hummingbird-reference",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "HummingbirdReference",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")]
        ),
    ]
)
