import Foundation

/// A calendar file read for its occurrences and alarms: events and to-dos grouped
/// by UID (the master and its RECURRENCE-ID overrides), with every TZID resolved.
///
/// Load with `load(path:floatingZone:strict:)`; list with `occurrences(from:to:)`,
/// `alarmFirings(from:to:)` or `notificationRequests(from:to:)`. Defects confined
/// to one component or line are read around and listed in `warnings`.
public struct ICSCalendar: Sendable {
    /// One UID: its master (nil when the file holds only overrides) and overrides.
    public struct Series: Sendable {
        /// The component without RECURRENCE-ID.
        public var master: ICSEvent?
        /// The components with RECURRENCE-ID, in file order.
        public var overrides: [ICSEvent]
    }
    /// One entry per UID, in the order UIDs first appear in the file.
    public var series: [Series]
    /// The path as given, for locations.
    public var file: String
    /// Zone of floating times: X-WR-TIMEZONE when present, else the caller's.
    public var floatingZone: ZoneRules
    /// Per-series cap on generated instances (`--max-instances`).
    public var maxInstances: Int = 100_000
    /// What was read around while loading (a VEVENT without UID, an unknown
    /// RRULE part, a mistyped END…), each with its line, by line.
    public var warnings: [ICSWarning] = []

    /// Reads and resolves `path`.
    /// - Parameters:
    ///   - path: the file (`-` for standard input, a FIFO waits for a writer).
    ///   - floatingZone: the zone of floating times when the file has no X-WR-TIMEZONE.
    ///   - strict: the first defect is an error instead of a warning.
    ///   - fifoWait: how long a FIFO may go without a writer, in seconds.
    ///   - limits: the bounds on lines, nesting, components and time zones.
    /// - Throws: `InputError.file` when unreadable; `InputError.data` when the
    ///   file is not iCalendar, or (strict) at the first defect.
    /// - Complexity: one pass over the file (two when X-WR-TIMEZONE follows an
    ///   event); memory holds the resolved events, not the file's text.
    public static func load(path: String, floatingZone: ZoneRules = .utc, strict: Bool = false,
                            fifoWait: Double = 30, limits: ICSLimits = .standard) throws(InputError) -> ICSCalendar {
        try InputError.reading {
            try load(ICSCalendarLoader(path: path, floatingZone: floatingZone, strict: strict, fifoWait: fifoWait, limits: limits))
        }
    }

    /// Reads and resolves a calendar given as bytes (from a request body or a
    /// database, say), with the same rules as `load(path:…)`.
    /// - Parameters:
    ///   - data: the iCalendar text.
    ///   - name: names the calendar in warnings and errors (`name:LINE`).
    ///   - floatingZone: the zone of floating times when the calendar has no X-WR-TIMEZONE.
    ///   - strict: the first defect is an error instead of a warning.
    ///   - limits: the bounds on lines, nesting, components and time zones.
    /// - Throws: `InputError.data` when the bytes are not iCalendar, or (strict)
    ///   at the first defect; `InputError.file` when no temporary copy can be written.
    /// - Complexity: as `load(path:…)`, plus one copy of the bytes to a
    ///   temporary file (the reader streams from a file descriptor).
    public static func load(data: Data, name: String = "calendar.ics", floatingZone: ZoneRules = .utc,
                            strict: Bool = false, limits: ICSLimits = .standard) throws(InputError) -> ICSCalendar {
        try InputError.reading {
            try TemporaryCopy.with(data, suffix: ".ics", name: name) { copy in
                var loader = ICSCalendarLoader(path: name, floatingZone: floatingZone, strict: strict, fifoWait: 0, limits: limits)
                loader.openedPath = copy
                return try load(loader)
            }
        }
    }

    /// Runs `loader` (and a second pass when it needs one).
    private static func load(_ first: ICSCalendarLoader) throws -> ICSCalendar {
        var loader = first
        try loader.read()
        if loader.needsSecondPass {
            loader = ICSCalendarLoader(secondPassAfter: loader)
            try loader.read()
        }
        return try loader.finish()
    }
}
