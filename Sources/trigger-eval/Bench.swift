import ArgumentParser

/// `trigger-eval bench …`: benchmarks that compare TriggerEngine with a peer in the
/// same run and print medians and ratios. One file per benchmark (`Bench*.swift`).
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure TriggerEngine against a peer on the same inputs, in one run.",
        subcommands: Bench.allBenchmarks
    )
}

extension Bench {
    /// Every benchmark, one line each.
    static let allBenchmarks: [any ParsableCommand.Type] = [
        BenchGeofence.self,
        BenchGeofenceMap.self,
        BenchDispatch.self,
        BenchICS.self,
        BenchCalendar.self,
        BenchCenter.self,
        BenchCluster.self,
        BenchNext.self,
    ]
}
