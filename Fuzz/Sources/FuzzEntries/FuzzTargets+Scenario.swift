import Foundation
@_spi(Internals) @testable import TriggerEngine

/// `trigger-eval simulate`: a scenario file, then the center and dispatcher on
/// a virtual clock over it.
extension FuzzTargets {
    /// The longest virtual span run, from the scenario's `from`.
    static let scenarioSpan: TimeInterval = 7 * 86_400
    /// Timeline lines produced before the run is cut short.
    static let scenarioEvents = 2_000

    static let scenario = FuzzTarget(
        name: "scenario",
        summary: "Scenario JSON (requests, triggers, categories, pushes, responses), run for up to 7 virtual days, timeline formatted",
        format: "scenario"
    ) { data in
        do {
            var scenario = try Scenario(data: data, path: "/fuzz/scenario.json")
            // The log a scenario names is a file of its own, fuzzed by the fixes targets.
            scenario.fixesPath = nil
            scenario.to = min(scenario.to, scenario.from.addingTimeInterval(scenarioSpan))
            var lines = 0
            var previous = Date.distantPast
            var problem: String?
            do {
                _ = try await ScenarioRunner(scenario: scenario).run { event in
                    let time: Date
                    switch event {
                    case .delivery(let delivery): time = delivery.notification.date
                    case .response(let response): time = response.date
                    }
                    if time < previous, problem == nil { problem = "the timeline goes back from \(previous) to \(time)" }
                    previous = time
                    let offset = scenario.timeZone.offset(atUTC: Int(time.timeIntervalSince1970.rounded(.down)))
                    _ = RFC3339.string(from: time, utcOffset: offset)
                    lines += 1
                    if lines >= scenarioEvents { throw EnoughEvents() }
                }
            } catch is EnoughEvents {}
            if let problem { return .violated(problem) }
            return .accepted(count: lines)
        } catch {
            return .rejected(error)
        }
    }

    /// Ends a run that has produced `scenarioEvents` lines.
    private struct EnoughEvents: Error {}
}
