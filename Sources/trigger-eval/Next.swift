import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// `trigger-eval next`: the next fire dates of one calendar, recurrence or
/// time-interval trigger, or of a batch of them.
struct Next: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Next fire dates of a calendar, recurrence or time-interval trigger, or of many.",
        discussion: """
            trigger-eval next --components "hour=7,minute=0" --tz America/New_York --after 2026-11-22T12:00:00Z --count 3
            trigger-eval next --rrule "FREQ=MONTHLY;BYDAY=-1FR" --dtstart 2026-01-30T09:00:00 --tz Europe/Berlin --count 5
            trigger-eval next --interval 3600 --repeats --after 2026-11-22T12:00:00Z --count 2
            trigger-eval next --batch queries.ndjson
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, ndjson
    }

    @Option(help: "Date components to match: key=value over year month day hour minute second weekday weekdayOrdinal weekOfMonth weekOfYear yearForWeekOfYear.")
    var components: String?

    @Option(help: "An RFC 5545 recurrence rule (needs --dtstart).")
    var rrule: String?

    @Option(help: "The recurrence's first instance: a local time in --tz, YYYY-MM-DDTHH:MM:SS (trailing Z: UTC).")
    var dtstart: String?

    @Option(help: "An extra recurrence instance (repeatable).")
    var rdate: [String] = []

    @Option(help: "A recurrence instance to leave out (repeatable).")
    var exdate: [String] = []

    @Option(help: "A time-interval trigger: seconds from --after to the first fire.")
    var interval: Double?

    @Flag(help: "The time-interval trigger repeats (interval ≥ 60 s).")
    var repeats = false

    @OptionGroup var zone: ZoneOption

    @Option(help: "List fires strictly after this RFC 3339 instant (default: now).")
    var after: String?

    @Option(help: "How many fires to list.")
    var count: Int?

    @Flag(help: "The trigger does not repeat: at most one fire.")
    var once = false

    @Option(help: "Output format: text (one instant a line) or ndjson ({\"fire\": …}).")
    var format: Format = .text

    @Option(help: "NDJSON file of queries, one object a line with the flags' names as keys ('-' for stdin).")
    var batch: String?

    @OptionGroup var destination: OutputOption

    func validate() throws {
        if batch != nil {
            let single = components != nil || rrule != nil || dtstart != nil || interval != nil || !rdate.isEmpty
                || !exdate.isEmpty || repeats || zone.name != nil || after != nil || count != nil || once
            guard !single else { throw ValidationError("--batch takes its queries from the file; give no trigger options with it") }
            return
        }
        let kinds = [components != nil, rrule != nil || dtstart != nil, interval != nil].filter { $0 }.count
        guard kinds == 1 else {
            throw ValidationError(kinds == 0 ? "Give a trigger: --components, --rrule with --dtstart, --interval, or --batch"
                                             : "Give one trigger: --components, --rrule with --dtstart, or --interval")
        }
        if rrule != nil && dtstart == nil { throw ValidationError("--rrule needs --dtstart") }
        if (!rdate.isEmpty || !exdate.isEmpty) && dtstart == nil { throw ValidationError("--rdate and --exdate need --dtstart") }
        if repeats && interval == nil { throw ValidationError("--repeats applies to --interval") }
        if let count, count < 0 { throw ValidationError("--count must be 0 or more") }
    }

    func run() async throws {
        let defaultZone = zone.resolvedName
        if let batch {
            try runBatch(path: batch, defaultZone: defaultZone)
            return
        }
        var fields = FireDateQuery.Fields()
        fields.components = try components.map { text throws(DataError) in try CalendarTrigger.componentPairs(parsing: text) }
        fields.rrule = rrule
        fields.dtstart = dtstart
        fields.rdate = rdate
        fields.exdate = exdate
        fields.interval = interval
        fields.repeats = repeats
        fields.tz = zone.name
        fields.after = after
        fields.count = count
        fields.once = once
        let query = try FireDateQuery(fields, defaultZone: defaultZone)
        let format = self.format
        try await OutputSink.writing(to: destination.output) { sink in
            for fire in query.fireDates() {
                let text = query.format(fire)
                try sink.writeLine(format == .ndjson ? "{\"fire\":\"\(text)\"}" : text)
            }
        }
    }

    /// One output line per query, in order; a bad query gets an error line and
    /// the run exits 65 at the end. Lines are answered on every core (`FireDateBatch`).
    private func runBatch(path: String, defaultZone: String) throws {
        let reader = try LineReader(path: path)
        let sink = try OutputSink(path: destination.output)
        let summary: FireDateBatch.Summary
        do {
            summary = try FireDateBatch(defaultZone: defaultZone, now: Date()).run(reader, write: { try sink.write($0) },
                                                                                  flush: { try sink.flush() })
            try sink.commit()
        } catch {
            sink.abandon()
            throw error
        }
        if summary.bad > 0, let firstBad = summary.firstBad {
            Diagnostics.write("error: \(firstBad)" + (summary.bad > 1 ? " (and \(summary.bad - 1) more bad queries)" : "") + "\n")
            throw ExitCode(Failure.Code.data.rawValue)
        }
    }
}
