// swift-tools-version:6.1
//
// libFuzzer targets for TriggerEngine's readers and parsers (README "Fuzzing").
// A package of its own so that the instrumented build (-sanitize=fuzzer,address)
// never touches the main one; `scripts/fuzz` builds and runs it.
//
// `TriggerEngine` here is a symbolic link to the repository root: SwiftPM names a
// path dependency after its folder, and the root's folder name depends on the
// checkout, so the link gives it a name that does not.
//
// `FuzzEntries` (the entry points) is also compiled into the regular tests,
// through the link `Tests/TriggerEngineTests/FuzzEntries`, so every regression
// fixture goes through the same code libFuzzer ran.
import PackageDescription

let package = Package(
    name: "TriggerEngineFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Without the PostgreSQL trait: the fuzzed readers need no SwiftNIO.
        .package(path: "TriggerEngine", traits: []),
    ],
    targets: [
        .target(
            name: "FuzzEntries",
            dependencies: [.product(name: "TriggerEngine", package: "TriggerEngine")]
        ),
        .executableTarget(
            name: "trigger-fuzz",
            dependencies: ["FuzzEntries"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
