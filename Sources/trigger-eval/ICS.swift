import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// `trigger-eval ics`: occurrences, alarm firings or notification requests of an
/// iCalendar file over a window.
struct ICS: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ics",
        abstract: "Occurrences, alarms or notification requests of an iCalendar file.",
        discussion: """
            trigger-eval ics calendar.ics --from 2026-01-01T00:00:00Z --to 2027-01-01T00:00:00Z
            trigger-eval ics calendar.ics --from 2026-01-01T00:00:00Z --to 2026-02-01T00:00:00Z --alarms
            trigger-eval ics calendar.ics --from 2026-01-01T00:00:00Z --to 2026-02-01T00:00:00Z --import
            """
    )

    @Argument(help: "The .ics file ('-' for stdin).")
    var file: String

    @Option(help: "Window start, RFC 3339.")
    var from: String

    @Option(help: "Window end (exclusive), RFC 3339.")
    var to: String

    @OptionGroup var zone: FileZoneOption

    @Flag(help: "List alarm firings instead of occurrences.")
    var alarms = false

    @Flag(name: .customLong("import"), help: "Write notification requests (JSON, one a line) instead of occurrences.")
    var importRequests = false

    @Option(help: "Most instances generated per event before a warning.")
    var maxInstances = 100_000

    @Flag(help: "Refuse the file at its first defect (exit 65) instead of reading around it with a warning.")
    var strict = false

    @Flag(name: .shortAndLong, help: "No summary on stderr (warnings are still printed).")
    var quiet = false

    @Option(help: "Seconds to wait for a writer when FILE is a FIFO.")
    var fifoWait = 30.0

    @OptionGroup var destination: OutputOption

    func validate() throws {
        if alarms && importRequests { throw ValidationError("--alarms and --import exclude each other") }
        if maxInstances < 1 { throw ValidationError("--max-instances must be at least 1") }
        if !(fifoWait >= 0 && fifoWait <= 86_400) { throw ValidationError("--fifo-wait must be between 0 and 86400 seconds") }
        guard let start = RFC3339.date(from: from) else { throw ValidationError("--from: not an RFC 3339 instant: \(from)") }
        guard let end = RFC3339.date(from: to) else { throw ValidationError("--to: not an RFC 3339 instant: \(to)") }
        if end < start { throw ValidationError("--to is before --from") }
    }

    func run() async throws {
        let low = Int(RFC3339.date(from: from)!.timeIntervalSince1970.rounded(.down))
        let high = Int(RFC3339.date(from: to)!.timeIntervalSince1970.rounded(.up))
        let began = Date()
        var calendar = try ICSCalendar.load(path: file, floatingZone: try zone.rules(),
                                            strict: strict, fifoWait: fifoWait)
        calendar.maxInstances = maxInstances
        var warnings = calendar.warnings
        // What to write, kept as values until the sink takes them one line at a
        // time: a month of the 100,000-event calendar is 120,000 lines.
        let items: Items
        if alarms {
            items = .firings(calendar.alarmFirings(from: low, to: high, warnings: &warnings))
        } else if importRequests {
            items = .requests(calendar.notificationRequests(from: low, to: high, warnings: &warnings))
        } else {
            items = .occurrences(calendar.occurrences(from: low, to: high, warnings: &warnings))
        }
        // --import expands twice (alarms, then starts): a warning once.
        var seen = Set<ICSWarning>()
        warnings = warnings.filter { seen.insert($0).inserted }
        if strict, let first = warnings.first { throw first.error }
        for warning in warnings { Diagnostics.warn(warning.description) }
        try await OutputSink.writing(to: destination.output) { sink in
            switch items {
            case .occurrences(let list): for item in list { try sink.writeLine(Self.line(for: item)) }
            case .firings(let list): for item in list { try sink.writeLine(Self.line(for: item)) }
            case .requests(let list):
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                for request in list { try sink.writeLine(String(decoding: try encoder.encode(try request.notificationRequest()), as: UTF8.self)) }
            }
        }
        if !quiet {
            Diagnostics.write(String(format: "ics: %d %@%@ from %d series, %d warning%@; %.2f s\n", items.count, items.unit, items.count == 1 ? "" : "s",
                                     calendar.series.count, warnings.count, warnings.count == 1 ? "" : "s", Date().timeIntervalSince(began)))
        }
    }

    /// The expansion's result, by mode.
    enum Items {
        case occurrences([ICSOccurrence])
        case firings([ICSAlarmFiring])
        case requests([ICSImportedRequest])

        var count: Int {
            switch self {
            case .occurrences(let list): list.count
            case .firings(let list): list.count
            case .requests(let list): list.count
            }
        }

        var unit: String {
            switch self {
            case .occurrences: "occurrence"
            case .firings: "alarm firing"
            case .requests: "notification request"
            }
        }
    }

    static func line(for item: ICSOccurrence) -> String {
        var line = "{\"uid\":\(JSONText.quoted(item.uid)),\"summary\":\(JSONText.quoted(item.summary)),\"start\":\"\(item.start.text)\",\"end\":\"\(item.end.text)\",\"all_day\":\(item.isAllDay)"
        if let recurrenceID = item.recurrenceID { line += ",\"recurrence_id\":\"\(recurrenceID.text)\"" }
        return line + "}"
    }

    static func line(for firing: ICSAlarmFiring) -> String {
        "{\"uid\":\(JSONText.quoted(firing.occurrence.uid)),\"alarm\":\"\(RFC3339.string(epochSeconds: firing.time))\",\"start\":\"\(firing.occurrence.start.text)\",\"action\":\(JSONText.quoted(firing.alarm.action)),\"description\":\(JSONText.quoted(firing.alarm.description))}"
    }
}
