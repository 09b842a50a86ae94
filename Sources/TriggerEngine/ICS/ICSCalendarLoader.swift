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
///
/// Defects are warnings (`ICSWarning`), gathered in `warnings`; with `strict`
/// the first one is thrown as a `DataError` instead.
struct ICSCalendarLoader {
    let path: String
    let floatingZone: ZoneRules
    let strict: Bool
    let fifoWait: Double
    let limits: ICSLimits
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
    /// What was read around so far.
    private(set) var warnings: [ICSWarning] = []
    /// The warnings about VTIMEZONEs, which a second pass does not read again.
    private var zoneWarnings: [ICSWarning] = []

    /// The file actually opened, when it is not `path` (which names the
    /// input in messages): the temporary copy of a calendar given as bytes.
    var openedPath: String?

    /// A first pass.
    init(path: String, floatingZone: ZoneRules, strict: Bool, fifoWait: Double, limits: ICSLimits) {
        self.path = path
        self.limits = limits
        self.floatingZone = floatingZone
        self.strict = strict
        self.fifoWait = fifoWait
        self.zones = ICSTimeZoneResolver()
        self.zonesComplete = false
    }

    /// A second pass, with what the first learned.
    init(secondPassAfter first: ICSCalendarLoader) {
        self.path = first.path
        self.openedPath = first.openedPath
        self.floatingZone = first.floatingZone
        self.strict = first.strict
        self.fifoWait = first.fifoWait
        self.limits = first.limits
        self.zones = first.parsing?.zones ?? first.zones
        self.wrTimeZone = first.wrTimeZone
        self.zonesComplete = true
        self.warnings = first.zoneWarnings
    }

    /// Keeps a warning, or throws it when strict.
    private mutating func keep(_ warning: ICSWarning, aboutZone: Bool = false) throws(DataError) {
        if strict { throw warning.error }
        warnings.append(warning)
        if aboutZone { zoneWarnings.append(warning) }
    }

    /// Keeps the warnings event parsing gathered.
    private mutating func keepParsingWarnings() throws(DataError) {
        guard let gathered = parsing?.warnings, !gathered.isEmpty else { return }
        parsing!.warnings.removeAll()
        for warning in gathered { try keep(warning) }
    }

    /// Reads the file; `finish()` then resolves what waited and returns the calendar.
    mutating func read() throws {
        try ICSFileReader.read(path: path, opening: openedPath, fifoWait: fifoWait, limits: limits, warn: { (warning) throws(DataError) in
            try keep(warning)
        }, calendarProperty: { property in
            guard property.name == "X-WR-TIMEZONE" else { return }
            if parsing != nil && wrTimeZone == nil { needsSecondPass = true }
            if wrTimeZone == nil { wrTimeZone = property }
        }, component: { (component) throws(DataError) in
            switch component.name {
            case "VTIMEZONE":
                if zonesComplete { return }
                var found: [ICSWarning] = []
                if parsing == nil {
                    zones.add(vtimezone: component, file: path, limits: limits) { found.append($0) }
                } else {
                    if let tzid = component.first("TZID")?.value, parsing!.zones.resolvedFromSystem(tzid) { needsSecondPass = true }
                    parsing!.zones.add(vtimezone: component, file: path, limits: limits) { found.append($0) }
                }
                for warning in found { try keep(warning, aboutZone: true) }
            case "VEVENT", "VTODO":
                guard !needsSecondPass else { return }
                if parsing == nil {
                    // A floating zone that names a VTIMEZONE later in the file: read again.
                    guard wrTimeZone.map({ zones.zone(named: $0.value.trimmingSpaces) != nil }) ?? true else {
                        needsSecondPass = true
                        return
                    }
                    parsing = ICSEventParsing(file: path, floatingZone: try floating(), zones: zones)
                }
                if names(unknownZoneIn: component) {
                    waiting.append(component)
                } else {
                    if let event = parsing!.event(component) { try add(event) }
                    try keepParsingWarnings()
                }
            default: break
            }
        })
    }

    /// The calendar, once `read()` has run without asking for a second pass.
    mutating func finish() throws(DataError) -> ICSCalendar {
        if parsing == nil { parsing = ICSEventParsing(file: path, floatingZone: try floating(), zones: zones) }
        // Every VTIMEZONE is known now: a TZID still unknown is read as floating.
        for component in waiting {
            if let event = parsing!.event(component) { try add(event) }
            try keepParsingWarnings()
        }
        waiting = []
        // A RECURRENCE-ID of the other value type than its master's DTSTART names
        // the instance of that date (RFC 5545 §3.8.4.4 wants the same type).
        for index in series.indices {
            guard let master = series[index].master else { continue }
            for override in series[index].overrides.indices {
                series[index].overrides[override].recurrenceID = series[index].overrides[override].recurrenceID.map(master.matchingStartType)
            }
        }
        var calendar = ICSCalendar(series: series, file: path, floatingZone: parsing!.floatingZone)
        calendar.warnings = warnings.enumerated().sorted { ($0.element.location.line ?? 0, $0.offset) < ($1.element.location.line ?? 0, $1.offset) }.map(\.element)
        return calendar
    }

    /// The floating zone: X-WR-TIMEZONE's when it names a zone, else the caller's.
    private mutating func floating() throws(DataError) -> ZoneRules {
        guard let wrTimeZone else { return floatingZone }
        let name = wrTimeZone.value.trimmingSpaces
        if let zone = zones.zone(named: name) { return zone }
        try keep(ICSWarning(.unknownTimeZone(name), at: InputLocation(file: path, line: wrTimeZone.line)))
        return floatingZone
    }

    /// Whether a property of `component` names a TZID that no VTIMEZONE read so
    /// far, no IANA name and no Windows name resolves (its VTIMEZONE may follow).
    private mutating func names(unknownZoneIn component: ICSComponentText) -> Bool {
        for property in component.properties {
            guard let tzid = property.parameters["TZID"] else { continue }
            if parsing!.zones.zone(named: tzid) == nil { return true }
        }
        return false
    }

    /// Files `event` under its UID. Two masters of one UID, or two overrides of
    /// one instance, are one too many: the higher SEQUENCE is kept, on a tie the
    /// first (as recurring-ical-events does), with a warning.
    private mutating func add(_ event: ICSEvent) throws(DataError) {
        let index: Int
        if let known = indexOfUID[event.uid] {
            index = known
        } else {
            index = series.count
            indexOfUID[event.uid] = index
            series.append(ICSCalendar.Series(master: nil, overrides: []))
        }
        func keepOne(_ existing: ICSEvent) throws(DataError) -> Bool {
            let replace = event.sequence > existing.sequence
            try keep(ICSWarning(.duplicateUID(event.uid, keptLine: replace ? event.line : existing.line),
                                at: InputLocation(file: path, line: event.line)))
            return replace
        }
        if let recurrenceID = event.recurrenceID {
            if let existing = series[index].overrides.firstIndex(where: { $0.recurrenceID?.instant == recurrenceID.instant }) {
                if try keepOne(series[index].overrides[existing]) { series[index].overrides[existing] = event }
                return
            }
            series[index].overrides.append(event)
        } else if let existing = series[index].master {
            if try keepOne(existing) { series[index].master = event }
        } else {
            series[index].master = event
        }
    }
}
