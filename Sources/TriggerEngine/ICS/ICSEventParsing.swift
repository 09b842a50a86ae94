/// Builds `ICSEvent`s from component text (RFC 5545 §3.6.1 VEVENT, §3.6.2 VTODO,
/// §3.6.6 VALARM), leniently: a value that cannot be read costs that value, or
/// the component when it is DTSTART, never the file; each such defect is an
/// `ICSWarning` in `warnings`, with its line.
struct ICSEventParsing {
    var file: String
    var floatingZone: ZoneRules
    var zones: ICSTimeZoneResolver
    /// What was read around, in file order; the loader takes them as they come.
    var warnings: [ICSWarning] = []
    /// TZIDs already reported as unknown (reported once, at their first use).
    private var unknownZones = Set<String>()

    init(file: String, floatingZone: ZoneRules, zones: ICSTimeZoneResolver) {
        self.file = file
        self.floatingZone = floatingZone
        self.zones = zones
    }

    mutating func warn(_ kind: ICSWarning.Kind, line: Int) {
        warnings.append(ICSWarning(kind, at: InputLocation(file: file, line: line)))
    }

    /// The zone of a property's values: TZID's, or floating (also for a TZID
    /// nothing knows, with a warning).
    mutating func zone(of property: ICSContentLine) -> ZoneRules {
        guard let tzid = property.parameters["TZID"] else { return floatingZone }
        if let zone = zones.zone(named: tzid) { return zone }
        if unknownZones.insert(tzid).inserted { warn(.unknownTimeZone(tzid), line: property.line) }
        return floatingZone
    }

    /// One DATE/DATE-TIME value; nil when it is not one. A DATE is a day in
    /// the floating zone.
    mutating func time(_ property: ICSContentLine) -> ICSTime? {
        let zone = zone(of: property)
        let dateOnly = property.parameters["VALUE"]?.uppercased() == "DATE"
        guard let time = ICSTime.parse(Substring(property.value.trimmingSpaces), zone: dateOnly ? floatingZone : zone, dateOnly: dateOnly) else { return nil }
        return time.isDate ? ICSTime(local: time.local, zone: floatingZone, isDate: true) : time
    }

    /// The comma-separated values of RDATE/EXDATE, PERIOD ends included; a
    /// value that cannot be read is left out with a warning.
    mutating func times(_ property: ICSContentLine) -> [(start: ICSTime, end: Int?)] {
        let zone = zone(of: property)
        let kind = property.parameters["VALUE"]?.uppercased()
        var result: [(start: ICSTime, end: Int?)] = []
        for item in property.value.split(separator: ",") {
            let text = item.trimmingSpaces
            let parts = text.split(separator: "/", maxSplits: 1)
            guard let first = parts.first, var start = ICSTime.parse(first, zone: zone, dateOnly: kind == "DATE") else {
                warn(.badValue(property: property.name, value: text), line: property.line)
                continue
            }
            if start.isDate { start.zone = floatingZone }
            var end: Int?
            if parts.count == 2 {
                // §3.3.9 PERIOD: start/end or start/duration (a date end is its midnight).
                if let endTime = ICSTime.parse(parts[1], zone: zone, dateOnly: false) {
                    end = endTime.instant
                } else if let duration = ICSDuration(parsing: String(parts[1])) {
                    end = duration.instant(after: start)
                } else {
                    warn(.badValue(property: property.name, value: text), line: property.line)
                    continue
                }
            }
            result.append((start, end))
        }
        return result
    }

    /// The undated to-do's span (`ICSEvent.isUndated`): 1970-01-01 to 2038-01-01.
    static let undatedToDoDays = 24_837

    /// The event or to-do in `component`, or nil when it has no usable start
    /// (a completed VTODO without DTSTART and DUE is not listed; an open one
    /// is, as `ICSEvent.isUndated` says).
    mutating func event(_ component: ICSComponentText) -> ICSEvent? {
        let isTodo = component.name == "VTODO"
        let given = component.first("UID")?.value ?? ""
        let uid = given.isEmpty ? component.syntheticUID : given
        var due: ICSTime?
        if isTodo, let property = component.first("DUE") {
            due = time(property)
            if due == nil { warn(.badValue(property: "DUE", value: property.value), line: property.line) }
        }
        var start: ICSTime
        var isUndated = false
        if let property = component.first("DTSTART") {
            guard let value = time(property) else {
                warn(.badStart(property: "DTSTART", value: property.value), line: property.line)
                return nil
            }
            start = value
        } else if let due {
            start = due
        } else if isTodo, component.first("COMPLETED") == nil, component.first("DURATION") == nil,
                  component.first("STATUS").map({ ["COMPLETED", "CANCELLED"].contains($0.value.trimmingSpaces.uppercased()) }) != true {
            start = ICSTime(local: LocalDateTime(localSeconds: 0), zone: floatingZone, isDate: true)
            isUndated = true
        } else {
            if !isTodo { warn(.missingStart(component: component.name, uid: uid), line: component.line) }
            return nil
        }
        var recurrenceID: ICSTime?
        var thisAndFuture = false
        if let property = component.first("RECURRENCE-ID") {
            guard let value = time(property) else {
                warn(.badStart(property: "RECURRENCE-ID", value: property.value), line: property.line)
                return nil
            }
            recurrenceID = value
            thisAndFuture = property.parameters["RANGE"]?.uppercased() == "THISANDFUTURE"
        }
        if given.isEmpty { warn(.missingUID(component: component.name, synthesized: uid), line: component.line) }
        let summary = component.first("SUMMARY")?.textValue ?? ""
        if isUndated {
            // No rule, date or alarm applies without a start; an override of it names no instance.
            guard recurrenceID == nil else { return nil }
            return ICSEvent(uid: uid, summary: summary, description: component.first("DESCRIPTION")?.textValue ?? "", isTodo: true,
                            isCancelled: false, sequence: component.first("SEQUENCE").flatMap { Int($0.value.trimmingSpaces) } ?? 0,
                            start: start, length: ICSDuration(days: Self.undatedToDoDays), rules: [], recurrenceDates: [],
                            exceptionInstants: [], exceptionDays: [], recurrenceID: nil, thisAndFuture: false,
                            alarms: [], line: component.line, isUndated: true)
        }
        let (exceptionInstants, exceptionDays) = exceptions(component, start: start)
        return ICSEvent(uid: uid, summary: summary, description: component.first("DESCRIPTION")?.textValue ?? "", isTodo: isTodo,
                        isCancelled: component.first("STATUS")?.value.trimmingSpaces.uppercased() == "CANCELLED",
                        sequence: component.first("SEQUENCE").flatMap { Int($0.value.trimmingSpaces) } ?? 0,
                        start: start, length: length(component, start: start, due: due),
                        rules: rules(component, start: start), recurrenceDates: recurrenceDates(component, start: start),
                        exceptionInstants: exceptionInstants, exceptionDays: exceptionDays,
                        recurrenceID: recurrenceID, thisAndFuture: thisAndFuture,
                        alarms: alarms(component, summary: summary), line: component.line)
    }

    /// DTEND (DUE for a VTODO) or DURATION, else the §3.6.1 defaults (a day for
    /// an all-day event, nothing otherwise). An end of the other value type than
    /// DTSTART is read in DTSTART's: a DATE end of a timed event is that
    /// midnight in DTSTART's zone; a DATE-TIME end of an all-day event ends with
    /// the day it falls in. An end before the start makes the instance end at
    /// its start.
    private mutating func length(_ component: ICSComponentText, start: ICSTime, due: ICSTime?) -> ICSDuration {
        let isTodo = component.name == "VTODO"
        let standard = ICSDuration(days: start.isDate && !isTodo ? 1 : 0)
        if let property = component.first(isTodo ? "DUE" : "DTEND") {
            guard let end = isTodo ? due : time(property) else {
                warn(.badValue(property: property.name, value: property.value), line: property.line)
                return standard
            }
            let length: ICSDuration
            switch (start.isDate, end.isDate) {
            case (true, true): length = ICSDuration(days: end.local.dayNumber - start.local.dayNumber)
            case (true, false):
                let days = end.local.dayNumber + (end.local.secondOfDay > 0 ? 1 : 0) - start.local.dayNumber
                length = ICSDuration(days: days)
            case (false, true): length = ICSDuration(seconds: ICSTime(local: end.local, zone: start.zone, isDate: false).instant - start.instant)
            case (false, false): length = ICSDuration(seconds: end.instant - start.instant)
            }
            guard length.approximateSeconds >= 0 else {
                warn(.endBeforeStart(property: property.name), line: property.line)
                return ICSDuration()
            }
            return length
        }
        if let property = component.first("DURATION") {
            guard let duration = ICSDuration(parsing: property.value.trimmingSpaces) else {
                warn(.badValue(property: "DURATION", value: property.value), line: property.line)
                return standard
            }
            guard duration.approximateSeconds >= 0 else {
                warn(.endBeforeStart(property: "DURATION"), line: property.line)
                return ICSDuration()
            }
            return duration
        }
        return standard
    }

    /// Every RRULE, read leniently: a bad part is left out, a rule with no FREQ
    /// is left out, each with a warning. An all-day DTSTART has no time of day,
    /// so BYHOUR, BYMINUTE and BYSECOND do not apply to it (RFC 5545 §3.3.10).
    private mutating func rules(_ component: ICSComponentText, start: ICSTime) -> [RecurrenceRule] {
        var rules: [RecurrenceRule] = []
        for property in component.all("RRULE") {
            let reading = RecurrenceRule.parsingLeniently(property.value)
            for ignored in reading.ignored { warn(.badRulePart(ignored.part, reason: ignored.reason), line: property.line) }
            guard var rule = reading.rule else {
                warn(.badRule(reason: reading.failure ?? "no rule"), line: property.line)
                continue
            }
            if start.isDate {
                if rule.frequency < .daily {
                    warn(.badRule(reason: "FREQ=\(rule.frequency.name) with an all-day DTSTART"), line: property.line)
                    continue
                }
                rule = rule.withoutTimeOfDay
            }
            if !rules.contains(rule) { rules.append(rule) }
        }
        return rules
    }

    /// RDATEs, each of DTSTART's value type: a DATE in a timed series starts at
    /// that midnight in DTSTART's zone (as recurring-ical-events does), a
    /// DATE-TIME in an all-day series is its date.
    private mutating func recurrenceDates(_ component: ICSComponentText, start: ICSTime) -> [(start: ICSTime, end: Int?)] {
        var result: [(start: ICSTime, end: Int?)] = []
        for property in component.all("RDATE") {
            for (time, end) in times(property) {
                if time.isDate == start.isDate {
                    result.append((time, end))
                } else if start.isDate {
                    result.append((ICSTime(local: LocalDateTime(localSeconds: time.local.dayNumber * 86_400), zone: start.zone, isDate: true), nil))
                } else {
                    result.append((ICSTime(local: time.local, zone: start.zone, isDate: false), end))
                }
            }
        }
        return result
    }

    /// EXDATEs: instants, and days for a DATE value in a timed series or any
    /// value in an all-day one (the day of the value's wall time).
    private mutating func exceptions(_ component: ICSComponentText, start: ICSTime) -> (instants: Set<Int>, days: Set<Int>) {
        var instants = Set<Int>(), days = Set<Int>()
        for property in component.all("EXDATE") {
            for (time, _) in times(property) {
                if start.isDate || time.isDate { days.insert(time.local.dayNumber) } else { instants.insert(time.instant) }
            }
        }
        return (instants, days)
    }

    /// The VALARMs; one that cannot be used is skipped with a warning.
    private mutating func alarms(_ component: ICSComponentText, summary: String) -> [ICSAlarm] {
        var alarms: [ICSAlarm] = []
        for child in component.children where child.name == "VALARM" {
            if let alarm = alarm(child, index: alarms.count + 1, summary: summary) { alarms.append(alarm) }
        }
        return alarms
    }

    /// One VALARM, or nil (with a warning) without a readable TRIGGER.
    private mutating func alarm(_ component: ICSComponentText, index: Int, summary: String) -> ICSAlarm? {
        guard let property = component.first("TRIGGER") else {
            warn(.badAlarm(reason: "without TRIGGER"), line: component.line)
            return nil
        }
        let trigger: ICSAlarm.Trigger
        if property.parameters["VALUE"]?.uppercased() == "DATE-TIME" {
            guard let time = ICSTime.parse(Substring(property.value.trimmingSpaces), zone: .utc, dateOnly: false) else {
                warn(.badAlarm(reason: "with a bad TRIGGER date '\(property.value)'"), line: property.line)
                return nil
            }
            trigger = .absolute(time.instant)
        } else {
            guard let duration = ICSDuration(parsing: property.value.trimmingSpaces) else {
                warn(.badAlarm(reason: "with a bad TRIGGER duration '\(property.value)'"), line: property.line)
                return nil
            }
            trigger = .relative(duration, toEnd: property.parameters["RELATED"]?.uppercased() == "END")
        }
        var repeatCount = 0
        var interval = ICSDuration()
        if let repeatProperty = component.first("REPEAT") {
            // §3.6.6: REPEAT and DURATION come together, DURATION positive.
            if let count = Int(repeatProperty.value.trimmingSpaces), count >= 0, count <= 10_000,
               let durationProperty = component.first("DURATION"), let duration = ICSDuration(parsing: durationProperty.value.trimmingSpaces),
               duration.approximateSeconds > 0 || count == 0 {
                repeatCount = count
                interval = duration
            } else {
                warn(.badValue(property: "REPEAT", value: repeatProperty.value + " (with DURATION \(component.first("DURATION")?.value ?? "missing"))"),
                     line: repeatProperty.line)
            }
        }
        return ICSAlarm(index: index, trigger: trigger, action: component.first("ACTION")?.value.trimmingSpaces.uppercased() ?? "DISPLAY",
                        description: component.first("DESCRIPTION")?.textValue ?? summary,
                        repeatCount: repeatCount, repeatInterval: interval)
    }
}

extension RecurrenceRule {
    /// The rule without BYHOUR, BYMINUTE and BYSECOND, for an all-day DTSTART.
    var withoutTimeOfDay: RecurrenceRule {
        guard !byHour.isEmpty || !byMinute.isEmpty || !bySecond.isEmpty else { return self }
        return RecurrenceRule(unchecked: frequency, interval: interval, end: end, bySecond: [], byMinute: [], byHour: [],
                              byDay: byDay, byMonthDay: byMonthDay, byYearDay: byYearDay, byWeekNo: byWeekNo, byMonth: byMonth,
                              bySetPos: bySetPos, weekStart: weekStart)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
