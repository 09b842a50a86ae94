/// A calendar file read for its occurrences and alarms: events and to-dos grouped
/// by UID (the master and its RECURRENCE-ID overrides), with every TZID resolved.
///
/// Load with `load(path:floatingZone:)`; list with `occurrences(from:to:)`,
/// `alarmFirings(from:to:)` or `notificationRequests(from:to:)`.
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

    /// Reads and resolves `path`.
    /// - Throws: `InputFileError`, or `DataError` with the line of the first bad value.
    /// - Complexity: one pass over the file (two when X-WR-TIMEZONE follows an
    ///   event); memory holds the resolved events, not the file's text.
    public static func load(path: String, floatingZone: ZoneRules = .utc) throws -> ICSCalendar {
        var loader = ICSCalendarLoader(path: path, floatingZone: floatingZone)
        try loader.read()
        if loader.needsSecondPass {
            loader = ICSCalendarLoader(secondPassAfter: loader)
            try loader.read()
        }
        return try loader.finish()
    }
}
