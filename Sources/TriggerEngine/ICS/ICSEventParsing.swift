/// Builds `ICSEvent`s from component text: every value checked, every error
/// naming its line (RFC 5545 §3.6.1 VEVENT, §3.6.2 VTODO, §3.6.6 VALARM).
struct ICSEventParsing {
    var file: String
    var floatingZone: ZoneRules
    var zones: ICSTimeZoneResolver
    var warnings: [ICSWarning] = []

    func location(_ line: Int) -> InputLocation { InputLocation(file: file, line: line) }

    /// The zone of a property's values: TZID's, or floating.
    mutating func zone(of property: ICSContentLine) throws(DataError) -> ZoneRules {
        guard let tzid = property.parameters["TZID"] else { return floatingZone }
        return try zones.zone(named: tzid, at: location(property.line))
    }

    /// One DATE/DATE-TIME value.
    mutating func time(_ property: ICSContentLine) throws(DataError) -> ICSTime {
        let zone = try zone(of: property)
        let dateOnly = property.parameters["VALUE"]?.uppercased() == "DATE"
        guard let time = ICSTime.parse(Substring(property.value.trimmingSpaces), zone: dateOnly ? floatingZone : zone, dateOnly: dateOnly) else {
            throw DataError("bad date '\(property.value)' in \(property.name)", at: location(property.line))
        }
        return time.isDate ? ICSTime(local: time.local, zone: floatingZone, isDate: true) : time
    }

    /// The comma-separated values of RDATE/EXDATE, PERIOD ends included.
    mutating func times(_ property: ICSContentLine) throws(DataError) -> [(start: ICSTime, end: Int?)] {
        let zone = try zone(of: property)
        let kind = property.parameters["VALUE"]?.uppercased()
        var result: [(start: ICSTime, end: Int?)] = []
        for item in property.value.split(separator: ",") {
            let text = item.trimmingSpaces
            let parts = text.split(separator: "/", maxSplits: 1)
            guard var start = ICSTime.parse(parts[0], zone: zone, dateOnly: kind == "DATE") else {
                throw DataError("bad date '\(text)' in \(property.name)", at: location(property.line))
            }
            if start.isDate { start.zone = floatingZone }
            var end: Int?
            if parts.count == 2 {
                // §3.3.9 PERIOD: start/end or start/duration.
                if let endTime = ICSTime.parse(parts[1], zone: zone, dateOnly: false) {
                    end = endTime.instant
                } else if let duration = ICSDuration(parsing: String(parts[1])) {
                    end = duration.instant(after: start)
                } else {
                    throw DataError("bad period '\(text)' in \(property.name)", at: location(property.line))
                }
            }
            result.append((start, end))
        }
        return result
    }

    /// The event or to-do in `component`.
    mutating func event(_ component: ICSComponentText) throws(DataError) -> ICSEvent {
        let isTodo = component.name == "VTODO"
        let here = location(component.line)
        guard let uid = component.first("UID")?.value, !uid.isEmpty else {
            throw DataError("\(component.name) without UID", at: here)
        }
        let due = try component.first("DUE").map { (property) throws(DataError) in try time(property) }
        var start: ICSTime
        if let property = component.first("DTSTART") {
            start = try time(property)
        } else if let due {
            start = due
        } else {
            throw DataError("\(component.name) \(uid) without DTSTART", at: here)
        }
        var length = ICSDuration(days: start.isDate && !isTodo ? 1 : 0)
        if let property = component.first(isTodo ? "DUE" : "DTEND"), let end = isTodo ? due : try time(property) {
            if start.isDate && end.isDate {
                length = ICSDuration(days: end.local.dayNumber - start.local.dayNumber)
            } else {
                length = ICSDuration(seconds: end.instant - start.instant)
            }
            if length.approximateSeconds < 0 {
                throw DataError("\(property.name) is before DTSTART", at: location(property.line))
            }
        } else if let property = component.first("DURATION") {
            guard let duration = ICSDuration(parsing: property.value.trimmingSpaces), duration.approximateSeconds >= 0 else {
                throw DataError("bad duration '\(property.value)'", at: location(property.line))
            }
            length = duration
        }
        var rule: RecurrenceRule?
        if let property = component.first("RRULE") {
            do { rule = try RecurrenceRule(parsing: property.value) } catch {
                throw DataError("bad RRULE: \(error.message)", at: location(property.line))
            }
        }
        var rdates: [(start: ICSTime, end: Int?)] = []
        for property in component.all("RDATE") { rdates += try times(property) }
        var exdates = Set<Int>()
        for property in component.all("EXDATE") { for value in try times(property) { exdates.insert(value.start.instant) } }
        var recurrenceID: ICSTime?
        var thisAndFuture = false
        if let property = component.first("RECURRENCE-ID") {
            recurrenceID = try time(property)
            thisAndFuture = property.parameters["RANGE"]?.uppercased() == "THISANDFUTURE"
        }
        var alarms: [ICSAlarm] = []
        for child in component.children where child.name == "VALARM" {
            alarms.append(try alarm(child, index: alarms.count + 1, summary: component.first("SUMMARY")?.textValue ?? ""))
        }
        return ICSEvent(uid: uid, summary: component.first("SUMMARY")?.textValue ?? "",
                        description: component.first("DESCRIPTION")?.textValue ?? "", isTodo: isTodo,
                        isCancelled: component.first("STATUS")?.value.uppercased() == "CANCELLED",
                        start: start, length: length, rule: rule, recurrenceDates: rdates, exceptionInstants: exdates,
                        recurrenceID: recurrenceID, thisAndFuture: thisAndFuture, alarms: alarms, line: component.line)
    }

    /// One VALARM.
    mutating func alarm(_ component: ICSComponentText, index: Int, summary: String) throws(DataError) -> ICSAlarm {
        guard let property = component.first("TRIGGER") else { throw DataError("VALARM without TRIGGER", at: location(component.line)) }
        let trigger: ICSAlarm.Trigger
        if property.parameters["VALUE"]?.uppercased() == "DATE-TIME" {
            guard let time = ICSTime.parse(Substring(property.value.trimmingSpaces), zone: .utc, dateOnly: false) else {
                throw DataError("bad date '\(property.value)' in TRIGGER", at: location(property.line))
            }
            trigger = .absolute(time.instant)
        } else {
            guard let duration = ICSDuration(parsing: property.value.trimmingSpaces) else {
                throw DataError("bad duration '\(property.value)' in TRIGGER", at: location(property.line))
            }
            trigger = .relative(duration, toEnd: property.parameters["RELATED"]?.uppercased() == "END")
        }
        var repeatCount = 0
        var interval = ICSDuration()
        if let repeatProperty = component.first("REPEAT") {
            guard let count = Int(repeatProperty.value.trimmingSpaces), count >= 0, count <= 10_000 else {
                throw DataError("bad REPEAT '\(repeatProperty.value)'", at: location(repeatProperty.line))
            }
            guard let durationProperty = component.first("DURATION"), let duration = ICSDuration(parsing: durationProperty.value.trimmingSpaces),
                  duration.approximateSeconds > 0 || count == 0 else {
                throw DataError("REPEAT needs a positive DURATION (RFC 5545 §3.6.6)", at: location(repeatProperty.line))
            }
            repeatCount = count
            interval = duration
        }
        return ICSAlarm(index: index, trigger: trigger, action: component.first("ACTION")?.value.uppercased() ?? "DISPLAY",
                        description: component.first("DESCRIPTION")?.textValue ?? summary,
                        repeatCount: repeatCount, repeatInterval: interval)
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
