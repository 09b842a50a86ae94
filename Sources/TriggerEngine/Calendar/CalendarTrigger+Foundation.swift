import Foundation

extension CalendarTrigger {
    /// The Foundation calendar whose `nextDate(after:matching:matchingPolicy:
    /// .nextTime, repeatedTimePolicy: .first, direction: .forward)` a trigger in
    /// `zone` reproduces: Gregorian, first weekday Sunday, minimum days in the
    /// first week 1 (fixed here, not taken from the locale). For cross-checks and
    /// benchmarks; the trigger itself never calls Foundation.
    public static func foundationCalendar(in zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendar.firstWeekday = 1
        calendar.minimumDaysInFirstWeek = 1
        return calendar
    }
}
