import Foundation
@_spi(Internals) @testable import TriggerEngine

/// iCalendar: the content-line reader, the component reader with its VTIMEZONEs,
/// and expansion over a fixed window (what `trigger-eval ics` does).
extension FuzzTargets {
    /// The window the expansion target lists: the year 2026, in Berlin for floating times.
    static let window = (low: 1_767_225_600, high: 1_798_761_600)
    /// Instances per series before the loader warns and stops (the CLI's default is 100,000).
    static let maxInstances = 2_000

    static let icsLexer = FuzzTarget(
        name: "ics-lexer", summary: "ICSFileReader: unfolding, content lines, BEGIN/END nesting, TEXT values",
        format: "ics"
    ) { bytes in
        FuzzScratchFile.with(bytes, suffix: ".ics") { path in
            FuzzOutcome.catching {
                var count = 0
                func visit(_ component: ICSComponentText) {
                    count += 1
                    for property in component.properties { _ = property.textValue }
                    for child in component.children { visit(child) }
                }
                try ICSFileReader.read(path: path, calendarProperty: { property in
                    _ = property.textValue
                    count += 1
                }, component: { component in visit(component) })
                return .accepted(count: count)
            }
        }
    }

    static let icsCalendar = FuzzTarget(
        name: "ics-calendar", summary: "ICSCalendar.load: events, to-dos, alarms, VTIMEZONEs, TZIDs, overrides",
        format: "ics"
    ) { bytes in
        loadingCalendar(bytes) { calendar in .accepted(count: calendar.series.count) }
    }

    static let icsExpand = FuzzTarget(
        name: "ics-expand", summary: "ICSCalendar occurrences, alarm firings and imported requests over 2026, formatted as the CLI does",
        format: "ics"
    ) { bytes in
        loadingCalendar(bytes) { calendar in
            var calendar = calendar
            calendar.maxInstances = maxInstances
            var warnings: [ICSWarning] = []
            let (low, high) = window
            let occurrences = calendar.occurrences(from: low, to: high, warnings: &warnings)
            var previous = Int.min
            for item in occurrences {
                let start = item.startInstant, end = item.endInstant
                guard start >= previous else { return .violated("occurrences not sorted by start: \(start) after \(previous)") }
                previous = start
                let inWindow = item.isAllDay || end == start ? (start >= low && start < high) : (start < high && end > low)
                guard inWindow else { return .violated("occurrence \(item.uid) at \(start)–\(end) is outside the window") }
                _ = item.start.text
                _ = item.end.text
                if let recurrenceID = item.recurrenceID { _ = recurrenceID.text }
            }
            let firings = calendar.alarmFirings(from: low, to: high, warnings: &warnings)
            previous = Int.min
            for firing in firings {
                guard firing.time >= low && firing.time < high else { return .violated("alarm at \(firing.time) outside the window") }
                guard firing.time >= previous else { return .violated("alarm firings not sorted by time") }
                previous = firing.time
                _ = RFC3339.string(epochSeconds: firing.time)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let requests = calendar.notificationRequests(from: low, to: high, warnings: &warnings)
            for request in requests { _ = try encoder.encode(try request.notificationRequest()) }
            for warning in warnings { _ = warning.description }
            return .accepted(count: occurrences.count + firings.count + requests.count)
        }
    }

    /// Loads `bytes` as a calendar file, floating times in Berlin, and hands it to `body`.
    private static func loadingCalendar(_ bytes: UnsafeRawBufferPointer,
                                        _ body: (ICSCalendar) throws -> FuzzOutcome) -> FuzzOutcome {
        FuzzScratchFile.with(bytes, suffix: ".ics") { path in
            FuzzOutcome.catching {
                let zone = try ZoneRules.named("Europe/Berlin")
                let calendar = try ICSCalendar.load(path: path, floatingZone: zone)
                // The same bytes given in memory read as the same calendar.
                let fromData = try ICSCalendar.load(data: Data(bytes), name: path, floatingZone: zone)
                guard fromData.series.count == calendar.series.count,
                      fromData.warnings.map(\.description) == calendar.warnings.map(\.description) else {
                    return .violated("ICSCalendar.load(data:) read \(fromData.series.count) series, load(path:) \(calendar.series.count)")
                }
                return try body(calendar)
            }
        }
    }
}
