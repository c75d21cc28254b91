// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "tabconfig",
    products: [
        .executable(name: "tabconfig", targets: ["tabconfig"]),
        .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
        .library(name: "TabBarModel", targets: ["TabBarModel"]),
        .library(name: "TabBarStore", targets: ["TabBarStore"]),
        .library(name: "TabBarAPI", targets: ["TabBarAPI"]),
    ],
    // The default build is the embedded service on its file store. The PostgreSQL store (replicas, `--store
    // postgres://…`, `migrate-store`) brings postgres-nio, SwiftNIO and a second BoringSSL: about half the build, so
    // it is a trait: `swift build --traits PostgreSQL`; the container, CI and `make install` build it.
    traits: [
        .trait(name: "PostgreSQL", description: "The PostgreSQL store: --store postgres://…, migrate-store."),
    ],
    dependencies: [
        // The Swift client apps link, a package of its own with no dependencies; built and tested against the server
        // here.
        .package(path: "Clients/Swift"),
        // Floors: the oldest release providing what the code uses. argument-parser 1.5.0: the first built for Swift 6
        // language mode; swift-log 1.16.2: LogHandler.log(event:) (JSONLogHandler), the release built here;
        // jwt-kit 5.0.0: JWTKeyCollection, JWK.rsa/ecdsa, ES256PublicKey(parameters:),
        // Insecure.RSA.PublicKey(modulus:exponent:).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.0.0"),
        // postgres-nio: the PostgreSQL store's client; 1.33.2 is the release built and tested here (PostgresClient
        // with withTransaction, executor preferences).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Metrics: swift-metrics' handler protocols (the stores report through them) backed by swift-prometheus's
        // registry, which writes the text format and keeps HELP texts; 2.4.1 and 2.13.0 are the releases built here.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // swift-crypto: SHA-256 of admin tokens. jwt-kit and postgres-nio already build it (4.5.2 here); the range is
        // jwt-kit's.
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"6.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // Brotli (Debian's libbrotli-dev) and gzip (zlib) for the compressed forms of prepared answers.
        .systemLibrary(
            name: "CCompression",
            pkgConfig: "libbrotlienc",
            providers: [.apt(["libbrotli-dev", "zlib1g-dev"])]
        ),
        .target(
            name: "MicroHTTP",
            dependencies: [
                "CMicroHTTPD", "CCompression",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MicroHTTPTesting",
            dependencies: ["MicroHTTP"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .target(name: "TabBarModel", swiftSettings: swiftSettings),
        .target(
            name: "TabBarStore",
            dependencies: [
                "TabBarModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TabBarAPI",
            dependencies: [
                "MicroHTTP", "TabBarModel", "TabBarStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/admin")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "tabconfig",
            dependencies: [
                "TabBarAPI", "TabBarModel", "TabBarStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test tooling for TabConfigClient's kill test: saves an order through the client, or resumes a pending save.
        .executableTarget(
            name: "TabConfigClientProbe",
            dependencies: [.product(name: "TabConfigClient", package: "Swift")],
            path: "Tests/Tools/TabConfigClientProbe",
            swiftSettings: swiftSettings
        ),
        // Test tooling for the store's crash tests: a process that writes until it is killed.
        .executableTarget(
            name: "StoreCrashWriter",
            dependencies: ["TabBarStore"],
            path: "Tests/Tools/StoreCrashWriter",
            swiftSettings: swiftSettings
        ),
        // Benchmark and test tooling: fills a data directory with customizations.
        .executableTarget(
            name: "BenchmarkSeeder",
            dependencies: ["TabBarStore", .product(name: "Logging", package: "swift-log")],
            path: "Tests/Tools/BenchmarkSeeder",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MicroHTTPTests",
            dependencies: [
                "MicroHTTP", "MicroHTTPTesting", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TabBarModelTests", dependencies: ["TabBarModel", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TabConfigClientServerTests",
            dependencies: [
                .product(name: "TabConfigClient", package: "Swift"), "TabConfigClientProbe", "TabBarAPI", "MicroHTTP", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TabBarStoreTests",
            dependencies: [
                "TabBarStore", "StoreCrashWriter", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TabBarAPITests",
            dependencies: [
                "TabBarAPI", "MicroHTTPTesting", "TabBarModel", "TabBarStore", "TestSupport", "tabconfig",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
