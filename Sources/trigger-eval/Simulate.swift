import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// `trigger-eval simulate`: the dispatcher on a virtual clock.
struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario's requests, fixes, pushes and responses on a virtual clock; print the timeline.",
        discussion: """
            trigger-eval simulate Examples/scenario.json > timeline.ndjson
            """
    )

    @Argument(help: "The scenario JSON file ('-' for stdin).")
    var scenario: String

    @OptionGroup var destination: OutputOption

    func run() async throws {
        // Read through LineReader: a pipe or FIFO works, a directory or a missing
        // file gets the operating system's reason (Data(contentsOf:) called a FIFO
        // a permission problem).
        let data = Data(try LineReader(path: scenario).readToEnd())
        let parsed = try Scenario(data: data, path: scenario)
        let runner = ScenarioRunner(scenario: parsed)
        let started = Date()
        let summary = try await OutputSink.writing(to: destination.output) { sink in
            try await runner.run { event in try sink.writeLine(Self.line(event, zone: parsed.timeZone)) }
        }
        let seconds = Date().timeIntervalSince(started)
        Diagnostics.write("simulate: \(summary.deliveries) deliveries, \(summary.responses) responses, "
                          + "\(summary.denied) denied, \(summary.droppedDismisses) dismisses not routed, "
                          + "\(summary.fixesUsed) fixes (\(summary.fixesSkipped) skipped) in \(String(format: "%.3f", seconds)) s\n")
    }

    /// One timeline line; instants carry the offset of the trigger's zone (the
    /// scenario's zone for floating, location and push ones).
    static func line(_ event: ScenarioRunner.Event, zone: ZoneRules) -> String {
        switch event {
        case .delivery(let delivery):
            let request = delivery.notification.request
            let time = format(delivery.notification.date, zone: request.trigger?.fixedZone ?? zone)
            return "{\"time\":\(json(time)),\"identifier\":\(json(request.identifier)),"
                + "\"trigger\":\(json(delivery.triggerKind.rawValue)),\"title\":\(json(request.content.title))}"
        case .response(let response):
            let request = response.notification.request
            let time = format(response.date, zone: request.trigger?.fixedZone ?? zone)
            return "{\"time\":\(json(time)),\"identifier\":\(json(request.identifier)),"
                + "\"response\":\(json(response.actionIdentifier)),\"text\":\(response.userText.map(json) ?? "null")}"
        }
    }

    static func format(_ date: Date, zone: ZoneRules) -> String {
        if zone.isNamedUTC { return RFC3339.string(from: date) }
        return RFC3339.string(from: date, utcOffset: zone.offset(atUTC: Int(date.timeIntervalSince1970.rounded(.down))))
    }

    /// A JSON string literal.
    static func json(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: (try? encoder.encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
