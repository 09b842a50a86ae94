/// A calendar file read for its occurrences and alarms: events and to-dos grouped
/// by UID (the master and its RECURRENCE-ID overrides), with every TZID resolved.
///
/// Load with `load(path:floatingZone:)`; list with `occurrences(from:to:)`,
/// `alarmFirings(from:to:)` or `notificationRequests(from:to:)`.
public struct ICSCalendar: Sendable {
    /// One UID: its master (nil when the file holds only overrides) and overrides.
    public struct Series: Sendable {
        public var master: ICSEvent?
        public var overrides: [ICSEvent]
    }
    public var series: [Series]
    /// The path as given, for locations.
    public var file: String
    /// Zone of floating times: X-WR-TIMEZONE when present, else the caller's.
    public var floatingZone: ZoneRules
    /// Per-series cap on generated instances (`--max-instances`).
    public var maxInstances: Int = 100_000

    /// Reads and resolves `path`.
    /// - Throws: `InputFileError`, or `DataError` with the line of the first bad value.
    public static func load(path: String, floatingZone: ZoneRules = .utc) throws -> ICSCalendar {
        var zones = ICSTimeZoneResolver()
        var components: [ICSComponentText] = []
        var wrTimeZone: ICSContentLine?
        try ICSFileReader.read(path: path, calendarProperty: { property in
            if property.name == "X-WR-TIMEZONE" { wrTimeZone = property }
        }, component: { (component) throws(DataError) in
            switch component.name {
            case "VTIMEZONE": try zones.add(vtimezone: component, file: path)
            case "VEVENT", "VTODO": components.append(component)
            default: break
            }
        })
        var floating = floatingZone
        if let wrTimeZone {
            floating = try zones.zone(named: wrTimeZone.value.trimmingSpaces, at: InputLocation(file: path, line: wrTimeZone.line))
        }
        var parsing = ICSEventParsing(file: path, floatingZone: floating, zones: zones)
        var order: [String] = []
        var byUID: [String: Series] = [:]
        for component in components {
            let event = try parsing.event(component)
            if byUID[event.uid] == nil { order.append(event.uid); byUID[event.uid] = Series(master: nil, overrides: []) }
            if event.recurrenceID != nil {
                byUID[event.uid]!.overrides.append(event)
            } else {
                if byUID[event.uid]!.master != nil {
                    throw DataError("second \(component.name) with UID \(event.uid) and no RECURRENCE-ID", at: InputLocation(file: path, line: event.line))
                }
                byUID[event.uid]!.master = event
            }
        }
        return ICSCalendar(series: order.map { byUID[$0]! }, file: path, floatingZone: floating)
    }
}
