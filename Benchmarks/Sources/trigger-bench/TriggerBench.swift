import ArgumentParser

/// `trigger-bench`: TriggerEngine measured against a peer on the same inputs,
/// in one run. One file per benchmark (`Bench*.swift`); README "Speed" lists
/// the commands and the figures they printed.
@main
struct TriggerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trigger-bench",
        abstract: "Measure TriggerEngine against a peer on the same inputs, in one run.",
        subcommands: [
            BenchGeofence.self,
            BenchGeofenceMap.self,
            BenchDispatch.self,
            BenchICS.self,
            BenchCalendar.self,
            BenchCenter.self,
            BenchCluster.self,
            BenchNext.self,
        ]
    )
}
