import Foundation

/// The components a calendar trigger matches, compiled from `DateComponents`
/// into plain integers: a value per unit and a mask of the units that are set.
///
/// It is a value type without heap storage, so the search can make adjusted
/// copies (Foundation adds a year or a month to the components as it goes)
/// without allocating.
struct CalendarPattern: Sendable, Hashable {
    private(set) var set = CalendarUnitSet()
    private var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
    private var weekday = 0, weekdayOrdinal = 0, weekOfMonth = 0, weekOfYear = 0, yearForWeekOfYear = 0

    init() {}

    /// The value of `unit`, or nil when it is not set.
    @inline(__always)
    subscript(unit: CalendarUnit) -> Int? {
        get { set.contains(unit) ? storage(unit) : nil }
        set {
            if let newValue {
                self.set.insert(unit)
                setStorage(unit, newValue)
            } else {
                self.set = CalendarUnitSet(rawValue: self.set.rawValue & ~CalendarUnitSet(unit).rawValue)
                setStorage(unit, 0)
            }
        }
    }

    @inline(__always)
    private func storage(_ unit: CalendarUnit) -> Int {
        switch unit {
        case .year: return year
        case .month: return month
        case .day: return day
        case .hour: return hour
        case .minute: return minute
        case .second: return second
        case .weekday: return weekday
        case .weekdayOrdinal: return weekdayOrdinal
        case .weekOfMonth: return weekOfMonth
        case .weekOfYear: return weekOfYear
        case .yearForWeekOfYear: return yearForWeekOfYear
        }
    }

    @inline(__always)
    private mutating func setStorage(_ unit: CalendarUnit, _ value: Int) {
        switch unit {
        case .year: year = value
        case .month: month = value
        case .day: day = value
        case .hour: hour = value
        case .minute: minute = value
        case .second: second = value
        case .weekday: weekday = value
        case .weekdayOrdinal: weekdayOrdinal = value
        case .weekOfMonth: weekOfMonth = value
        case .weekOfYear: weekOfYear = value
        case .yearForWeekOfYear: yearForWeekOfYear = value
        }
    }
}

extension CalendarPattern {
    /// The set as `DateComponents` again (the units it holds, nothing else).
    var dateComponents: DateComponents {
        var components = DateComponents()
        for unit in CalendarUnit.allCases {
            if let value = self[unit] { components.setValue(value, for: unit.component) }
        }
        return components
    }
}
