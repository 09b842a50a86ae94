/// The date components a calendar trigger can match, in the order Foundation
/// ranks them when it picks a search's "highest set unit".
///
/// That order is not chronological (`weekday` ranks below `second`): it is
/// `DateComponents.highestSetUnit`'s, and the search reproduces Foundation's
/// steps, so it has to rank units the same way.
enum CalendarUnit: Int, CaseIterable, Sendable {
    case year, month, day, hour, minute, second, weekday, weekdayOrdinal, weekOfMonth, weekOfYear, yearForWeekOfYear

    /// The unit a search moves on to when this one cannot match any more in the
    /// current period (`Calendar.Component.nextHigherUnit`); `nil` stands for the era.
    var nextHigher: CalendarUnit? {
        switch self {
        case .year, .yearForWeekOfYear: return nil
        case .weekOfYear: return .yearForWeekOfYear
        case .month: return .year
        case .day, .weekOfMonth, .weekdayOrdinal: return .month
        case .weekday: return .weekOfMonth
        case .hour: return .day
        case .minute: return .hour
        case .second: return .minute
        }
    }

    /// The name used in `DateComponents`, the CLI and error messages.
    var name: String {
        switch self {
        case .year: return "year"
        case .month: return "month"
        case .day: return "day"
        case .hour: return "hour"
        case .minute: return "minute"
        case .second: return "second"
        case .weekday: return "weekday"
        case .weekdayOrdinal: return "weekdayOrdinal"
        case .weekOfMonth: return "weekOfMonth"
        case .weekOfYear: return "weekOfYear"
        case .yearForWeekOfYear: return "yearForWeekOfYear"
        }
    }

    /// The values a trigger accepts for the unit: Foundation's
    /// (`Calendar.validRange(for:)` of a Gregorian calendar with firstWeekday 1
    /// and minimumDaysInFirstWeek 1), except `weekdayOrdinal` 6 and 7, which
    /// Foundation accepts but no month has, and on which its search can loop
    /// forever (`{day: 4, hour: 15, weekdayOrdinal: 6}` never returns).
    var validRange: ClosedRange<Int> {
        switch self {
        case .year, .yearForWeekOfYear: return 1...144_683
        case .month: return 1...12
        case .day: return 1...31
        case .hour: return 0...23
        case .minute, .second: return 0...59
        case .weekday: return 1...7
        case .weekdayOrdinal: return 1...5
        case .weekOfMonth: return 1...6
        case .weekOfYear: return 1...53
        }
    }
}

/// A set of `CalendarUnit`s, as a bit mask.
struct CalendarUnitSet: OptionSet, Sendable, Hashable {
    var rawValue: UInt16

    init(rawValue: UInt16) { self.rawValue = rawValue }

    @inline(__always)
    init(_ unit: CalendarUnit) { rawValue = 1 << UInt16(unit.rawValue) }

    @inline(__always)
    func contains(_ unit: CalendarUnit) -> Bool { rawValue & (1 << UInt16(unit.rawValue)) != 0 }

    @inline(__always)
    mutating func insert(_ unit: CalendarUnit) { rawValue |= 1 << UInt16(unit.rawValue) }

    /// The highest-ranked unit in the set (see `CalendarUnit`'s order).
    @inline(__always)
    var highest: CalendarUnit? {
        guard rawValue != 0 else { return nil }
        return CalendarUnit(rawValue: rawValue.trailingZeroBitCount)
    }

    /// The lowest-ranked unit in `DateComponents.lowestSetUnit`'s order, which
    /// ranks the week units first and then runs from second up to year.
    var lowest: CalendarUnit? {
        for unit in [CalendarUnit.yearForWeekOfYear, .weekOfYear, .weekOfMonth, .weekdayOrdinal, .weekday,
                     .second, .minute, .hour, .day, .month, .year] where contains(unit) {
            return unit
        }
        return nil
    }

    /// The number of units in the set.
    var count: Int { rawValue.nonzeroBitCount }
}
