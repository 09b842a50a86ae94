/// Reads a calendar file into `ICSCalendar.Series`, parsing each VEVENT and
/// VTODO as soon as the reader hands it over, so that memory holds resolved
/// events, never the text of the whole file.
///
/// Every exporter we know writes VTIMEZONEs and X-WR-TIMEZONE before the events,
/// but RFC 5545 does not order components, so the loader copes with the rest:
/// - an event whose TZID nothing resolves yet waits, as text, for the end of
///   the file (its VTIMEZONE may follow);
/// - a VTIMEZONE that arrives after an event already used the system's zone of
///   the same name (the file's definition must win), or an X-WR-TIMEZONE after
///   the first event (floating times were read in another zone), makes the
///   loader read the file a second time, with every zone known.
struct ICSCalendarLoader {
    let path: String
    let floatingZone: ZoneRules
    private(set) var zones: ICSTimeZoneResolver
    private(set) var wrTimeZone: ICSContentLine?
    /// Set when the first pass cannot decide every event's zone.
    private(set) var needsSecondPass = false
    /// A second pass has every VTIMEZONE from the first already.
    private let zonesComplete: Bool
    private var parsing: ICSEventParsing?
    private var waiting: [ICSComponentText] = []
    /// The series in the order their UIDs first appear, and where each UID is.
    private var series: [ICSCalendar.Series] = []
    private var indexOfUID: [String: Int] = [:]

    /// A first pass.
    init(path: String, floatingZone: ZoneRules) {
        self.path = path
        self.floatingZone = floatingZone
        self.zones = ICSTimeZoneResolver()
        self.zonesComplete = false
    }

    /// A second pass, with what the first learned.
    init(secondPassAfter first: ICSCalendarLoader) {
        self.path = first.path
        self.floatingZone = first.floatingZone
        self.zones = first.parsing?.zones ?? first.zones
        self.wrTimeZone = first.wrTimeZone
        self.zonesComplete = true
    }

    /// Reads the file; `finish()` then resolves what waited and returns the calendar.
    mutating func read() throws {
        try ICSFileReader.read(path: path, calendarProperty: { property in
            guard property.name == "X-WR-TIMEZONE" else { return }
            if parsing != nil && wrTimeZone == nil { needsSecondPass = true }
            if wrTimeZone == nil { wrTimeZone = property }
        }, component: { (component) throws(DataError) in
            switch component.name {
            case "VTIMEZONE":
                if zonesComplete { return }
                guard parsing != nil else { return try zones.add(vtimezone: component, file: path) }
                if let tzid = component.first("TZID")?.value, parsing!.zones.resolvedFromSystem(tzid) { needsSecondPass = true }
                try parsing!.zones.add(vtimezone: component, file: path)
            case "VEVENT", "VTODO":
                guard !needsSecondPass else { return }
                if parsing == nil {
                    // A floating zone that names a VTIMEZONE later in the file: read again.
                    guard let floating = try? floating() else { needsSecondPass = true; return }
                    parsing = ICSEventParsing(file: path, floatingZone: floating, zones: zones)
                }
                if names(unknownZoneIn: component) { waiting.append(component) } else { try add(parsing!.event(component)) }
            default: break
            }
        })
    }

    /// The calendar, once `read()` has run without asking for a second pass.
    mutating func finish() throws(DataError) -> ICSCalendar {
        if parsing == nil { parsing = ICSEventParsing(file: path, floatingZone: try floating(), zones: zones) }
        // Every VTIMEZONE is known now: an unknown TZID is an error at its line.
        for component in waiting { try add(parsing!.event(component)) }
        waiting = []
        return ICSCalendar(series: series, file: path, floatingZone: parsing!.floatingZone)
    }

    private mutating func floating() throws(DataError) -> ZoneRules {
        guard let wrTimeZone else { return floatingZone }
        return try zones.zone(named: wrTimeZone.value.trimmingSpaces, at: InputLocation(file: path, line: wrTimeZone.line))
    }

    /// Whether a property of `component` names a TZID that no VTIMEZONE read so
    /// far, no IANA name and no Windows name resolves.
    private mutating func names(unknownZoneIn component: ICSComponentText) -> Bool {
        for property in component.properties {
            guard let tzid = property.parameters["TZID"] else { continue }
            if (try? parsing!.zones.zone(named: tzid, at: InputLocation(file: path, line: property.line))) == nil { return true }
        }
        return false
    }

    private mutating func add(_ event: ICSEvent) throws(DataError) {
        let index: Int
        if let known = indexOfUID[event.uid] {
            index = known
        } else {
            index = series.count
            indexOfUID[event.uid] = index
            series.append(ICSCalendar.Series(master: nil, overrides: []))
        }
        if event.recurrenceID != nil {
            series[index].overrides.append(event)
        } else {
            if series[index].master != nil {
                throw DataError("second \(event.isTodo ? "VTODO" : "VEVENT") with UID \(event.uid) and no RECURRENCE-ID",
                                at: InputLocation(file: path, line: event.line))
            }
            series[index].master = event
        }
    }
}
