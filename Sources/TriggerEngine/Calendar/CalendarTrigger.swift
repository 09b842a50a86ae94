import Foundation

/// A trigger that fires when the local date and time match a set of date
/// components: `UNCalendarNotificationTrigger` for servers.
///
/// The next fire date is exactly what Foundation's
/// `Calendar.nextDate(after:matching:matchingPolicy: .nextTime,
/// repeatedTimePolicy: .first, direction: .forward)` returns in a Gregorian
/// calendar (first weekday Sunday, minimum days in first week 1) of the
/// trigger's zone, nil included, computed without calling Foundation: see
/// `CalendarSearch` for how, and the CalendarAndRecurrence article for what that means for
/// times in a DST gap or days a month lacks.
public struct CalendarTrigger: Sendable, Hashable {
    /// The components to match, as given (rebuilt from the compiled pattern:
    /// a trigger keeps only the integers, a fraction of a `DateComponents`'
    /// size, which matters for a scheduler holding millions).
    public var dateComponents: DateComponents { pattern.dateComponents }
    /// Whether the trigger fires every time the components match, or once.
    public var repeats: Bool
    /// The zone the components are read in.
    public var timeZone: TriggerTimeZone
    /// The components compiled for the search.
    let pattern: CalendarPattern

    /// The components a trigger can match, by their `DateComponents` names.
    public static let componentNames = CalendarUnit.allCases.map(\.name)

    /// Creates a trigger.
    /// - Parameters:
    ///   - dateMatching: any of year, month, day, hour, minute, second, weekday
    ///     (1 = Sunday), weekdayOrdinal, weekOfMonth, weekOfYear, yearForWeekOfYear.
    ///   - repeats: fire every time they match, or only the first time.
    ///   - timeZone: a fixed zone, or `.floating` to follow the zone the
    ///     evaluator supplies.
    /// - Throws: `DataError` when no component is set, when another component
    ///   (era, nanosecond, a calendar or zone inside the components…) is set,
    ///   or when a value is outside the range Foundation accepts for it.
    public init(dateMatching: DateComponents, repeats: Bool, timeZone: TriggerTimeZone = .floating) throws(DataError) {
        var unsupported: [String] = []
        if dateMatching.era != nil { unsupported.append("era") }
        if dateMatching.quarter != nil { unsupported.append("quarter") }
        if dateMatching.nanosecond != nil { unsupported.append("nanosecond") }
        if dateMatching.dayOfYear != nil { unsupported.append("dayOfYear") }
        if dateMatching.isLeapMonth != nil { unsupported.append("isLeapMonth") }
        if dateMatching.calendar != nil { unsupported.append("calendar") }
        if dateMatching.timeZone != nil { unsupported.append("timeZone (use the trigger's timeZone)") }
        guard unsupported.isEmpty else {
            throw DataError("unsupported date component \(unsupported.joined(separator: ", ")); "
                            + "a calendar trigger matches \(Self.componentNames.joined(separator: ", "))")
        }
        var pattern = CalendarPattern()
        for unit in CalendarUnit.allCases {
            guard let value = dateMatching.value(for: unit.component) else { continue }
            guard unit.validRange.contains(value) else {
                throw DataError("\(unit.name)=\(value) is out of range (expected \(unit.validRange.lowerBound)…\(unit.validRange.upperBound))")
            }
            pattern[unit] = value
        }
        guard !pattern.set.isEmpty else {
            throw DataError("no date components to match (give at least one of \(Self.componentNames.joined(separator: ", ")))")
        }
        self.repeats = repeats
        self.timeZone = timeZone
        self.pattern = pattern
    }

    /// The first instant strictly after `date` whose local date and time match
    /// the components, or nil when there is none (Foundation's answer).
    /// - Parameters:
    ///   - date: the instant to search after.
    ///   - floatingZone: the zone of a `.floating` trigger.
    /// - Complexity: a bounded number of O(log t) steps in the zone's t
    ///   transitions; no per-call Foundation or ICU work, no allocation.
    public func nextTriggerDate(after date: Date, in floatingZone: ZoneRules) -> Date? {
        let search = CalendarSearch(calendar: ZoneCalendar(rules: timeZone.rules(floatingIn: floatingZone),
                                                           near: date.timeIntervalSince1970), pattern: pattern)
        return search.next(after: date.timeIntervalSince1970).map { Date(timeIntervalSince1970: $0) }
    }

    /// `nextTriggerDate(after:in:)` with a floating trigger read in UTC; for a
    /// fixed zone, without fetching (and reference counting) the UTC rules.
    public func nextTriggerDate(after date: Date) -> Date? {
        guard case .fixed(let rules) = timeZone else { return nextTriggerDate(after: date, in: .utc) }
        let search = CalendarSearch(calendar: ZoneCalendar(rules: rules, near: date.timeIntervalSince1970), pattern: pattern)
        return search.next(after: date.timeIntervalSince1970).map { Date(timeIntervalSince1970: $0) }
    }

    /// The fire dates after `date`, lazily: each the next match strictly after
    /// the one before; a single date when the trigger does not repeat.
    ///
    /// The sequence's type is opaque so that the public face shows a sequence of
    /// dates and not the standard library's unsafe-buffer defaults of a named one.
    public func fireDates(after date: Date, in floatingZone: ZoneRules = .utc) -> some Sequence<Date> & Sendable {
        CalendarFireDates(search: CalendarSearch(calendar: ZoneCalendar(rules: timeZone.rules(floatingIn: floatingZone),
                                                                        near: date.timeIntervalSince1970),
                                                 pattern: pattern),
                          after: date.timeIntervalSince1970, limit: repeats ? nil : 1)
    }
}

/// The fire dates of a calendar trigger, computed one at a time.
struct CalendarFireDates: Sequence, IteratorProtocol, Sendable {
    var search: CalendarSearch
    var after: Double
    var remaining: Int?

    init(search: CalendarSearch, after: Double, limit: Int?) {
        self.search = search
        self.after = after
        self.remaining = limit
    }

    /// The next fire date, or nil when there is none.
    /// - Complexity: one `nextTriggerDate` call.
    mutating func next() -> Date? {
        if let remaining {
            guard remaining > 0 else { return nil }
            self.remaining = remaining - 1
        }
        search = search.centred(on: after)
        guard let next = search.next(after: after) else {
            remaining = 0
            return nil
        }
        after = next
        return Date(timeIntervalSince1970: next)
    }
}

extension CalendarUnit {
    /// The matching `Calendar.Component`.
    var component: Calendar.Component {
        switch self {
        case .year: return .year
        case .month: return .month
        case .day: return .day
        case .hour: return .hour
        case .minute: return .minute
        case .second: return .second
        case .weekday: return .weekday
        case .weekdayOrdinal: return .weekdayOrdinal
        case .weekOfMonth: return .weekOfMonth
        case .weekOfYear: return .weekOfYear
        case .yearForWeekOfYear: return .yearForWeekOfYear
        }
    }
}
