// swift-tools-version:6.1
//
// TriggerEngine's benchmarks: each compares TriggerEngine with a peer in the
// same run (Python packages, Foundation, libical, PgQueuer, APScheduler) and
// prints medians, means, p99s and ratios. A package of its own, as
// swift-collections keeps its benchmarks, so that the shipped `trigger-eval`
// carries none of it. README "Speed" lists the commands and their figures.
//
// `TriggerEngine` here is a symbolic link to the repository root (as in
// `Fuzz/`): SwiftPM names a path dependency after its folder, and the root's
// folder name depends on the checkout.
//
// The benchmarks use the public API, plus a few internals the library exposes
// as `@_spi(Internals)` (the dispatcher's queue, the brute-force GEOS
// reference), which are not part of the public API.
import PackageDescription

let package = Package(
    name: "TriggerEngineBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "TriggerEngine"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // libical's recurrence iterator, the peer of `trigger-bench calendar`.
        .systemLibrary(
            name: "CLibICal",
            path: "Sources/CLibICal",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"]), .brew(["libical"])]
        ),
        .executableTarget(
            name: "trigger-bench",
            dependencies: [
                "CLibICal",
                .product(name: "TriggerEngine", package: "TriggerEngine"),
                .product(name: "TriggerEngineCluster", package: "TriggerEngine"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
