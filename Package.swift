// swift-tools-version:6.1
//
// TriggerEngine: Apple's UserNotifications trigger model (calendar, time interval,
// recurrence, location, push) for Linux servers and batch jobs.
//
// The two system-library targets wrap C libraries found through pkg-config; the
// `providers` lines are what SwiftPM suggests when they are missing, and what
// `scripts/bootstrap` installs.
//
// The clustered PostgreSQL store is a module of its own, `TriggerEngineCluster`
// (its sources in Sources/TriggerEngine/Cluster), so that the core module never
// loads PostgresNIO: none of its types, nor the members its extensions lend to
// every `RawRepresentable`, reach the core's API. The `PostgreSQL` trait (on by
// default) builds it into `trigger-eval`; a package that needs only the
// embedded SQLite store, such as the fuzzing package, turns it off with
// `traits: []` and builds without SwiftNIO.
import PackageDescription

let package = Package(
    name: "TriggerEngine",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TriggerEngine", targets: ["TriggerEngine"]),
        .library(name: "TriggerEngineCluster", targets: ["TriggerEngineCluster"]),
        .executable(name: "trigger-eval", targets: ["trigger-eval"]),
    ],
    traits: [
        .trait(name: "PostgreSQL", description: "The clustered PostgreSQL store (PostgresNIO)."),
        .default(enabledTraits: ["PostgreSQL"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        // Provides `swift package generate-documentation` (the DocC catalog in Sources/TriggerEngine/TriggerEngine.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CGEOS",
            path: "Sources/CGEOS",
            pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"]), .brew(["geos"])]
        ),
        .systemLibrary(
            name: "CICal",
            path: "Sources/CICal",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"]), .brew(["libical"])]
        ),
        .target(
            name: "TriggerEngine",
            dependencies: [
                "CGEOS",
                "CICal",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for binding a bulk save's values directly (Store/DirectBindings.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // The live center is a `Service` a ServiceGroup can run and shut down gracefully.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Cluster"]
        ),
        // Several centers sharing one PostgreSQL database (ClusterCenter, PostgresStore).
        .target(
            name: "TriggerEngineCluster",
            dependencies: [
                "TriggerEngine",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/TriggerEngine/Cluster"
        ),
        .executableTarget(
            name: "trigger-eval",
            dependencies: [
                "TriggerEngine",
                .target(name: "TriggerEngineCluster", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test support, not shipped: the seeded generator the tests share, and
        // the child process of the kill -9 test.
        .target(
            name: "TestSupport",
            path: "Tests/Support/TestSupport"
        ),
        .executableTarget(
            name: "crash-test-child",
            dependencies: [
                "TriggerEngine", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/Support/CrashTestChild"
        ),
        .testTarget(
            name: "TriggerEngineTests",
            dependencies: [
                "TriggerEngine", "CGEOS", "CICal", "TestSupport",
                .target(name: "TriggerEngineCluster", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TriggerEngineTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "TriggerEvalTests",
            dependencies: [
                "trigger-eval", "crash-test-child", "TestSupport",
                .target(name: "TriggerEngineCluster", condition: .when(traits: ["PostgreSQL"])),
            ],
            path: "Tests/TriggerEvalTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
